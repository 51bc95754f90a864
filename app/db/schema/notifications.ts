import { sql } from "drizzle-orm";
import { type AnyPgColumn, index, integer, primaryKey, jsonb, pgTable, smallint, text, uniqueIndex, check } from "drizzle-orm/pg-core";
import { type IncidentPriority, NOTIFICATION_TYPE_VALUES, type NotificationType } from "../enums";
import { createdAt, entityId, id, inValues, timestamptz } from "./columns";
import { dataJobs } from "./data-jobs";
import { incidents } from "./incidents";
import { users } from "./users";

/**
 * `notification_details.message`: structured content, rendered (and
 * translated) by the UI from `type`. Incident notifications carry
 * `incidentPriority` and `incidentDescription`; export notifications carry
 * `downloadFileId`; import failures carry `errorCode` / `errorMessage`.
 */
export interface NotificationMessage {
  incidentPriority?: IncidentPriority;
  incidentDescription?: string | null;
  incidentTitle?: string;
  incidentShortId?: number;
  commentId?: number;
  downloadFileId?: string;
  errorCode?: number;
  errorMessage?: string | null;
  [key: string]: unknown;
}

/** What happened, once; fanned out to users through `notifications`. */
export const notificationDetails = pgTable(
  "notification_details",
  {
    id: id(),
    entityId: entityId(),
    type: smallint("type").$type<NotificationType>().notNull(),
    subject: text("subject").notNull(),
    message: jsonb("message").$type<NotificationMessage>().notNull().default({}),
    incidentId: integer("incident_id").references((): AnyPgColumn => incidents.id, {
      onDelete: "cascade",
    }),
    dataJobId: integer("data_job_id").references((): AnyPgColumn => dataJobs.id, {
      onDelete: "cascade",
    }),
    /**
     * What caused it, once (e.g. "incident-assigned:42:1234", the incident and its event): the notify job
     * writes a cause only once per entity, so a job run twice (a retry, a crash before it was marked done)
     * never notifies twice (decision 028).
     */
    sourceKey: text("source_key"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("notification_details_source_key")
      .on(t.entityId, t.sourceKey)
      .where(sql`${t.sourceKey} is not null`),
    index("notification_details_entity_created_idx").on(t.entityId, t.createdAt.desc().nullsFirst()),
    index("notification_details_incident_idx")
      .on(t.incidentId)
      .where(sql`${t.incidentId} is not null`),
    index("notification_details_data_job_idx")
      .on(t.dataJobId)
      .where(sql`${t.dataJobId} is not null`),
    check("notification_details_type_check", inValues(t.type, NOTIFICATION_TYPE_VALUES)),
  ]
);

/** One row per recipient. `read_at` is set once (marking as read is one-way). Listed newest first. */
export const notifications = pgTable(
  "notifications",
  {
    id: id(),
    entityId: entityId(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
    detailsId: integer("details_id")
      .notNull()
      .references((): AnyPgColumn => notificationDetails.id, { onDelete: "cascade" }),
    readAt: timestamptz("read_at"),
    /** When it left by email (alone or in a digest); null: not mailed (decision 028). */
    emailedAt: timestamptz("emailed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("notifications_user_details_key").on(t.userId, t.detailsId),
    index("notifications_user_created_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    index("notifications_user_unread_idx")
      .on(t.userId, t.createdAt.desc().nullsFirst())
      .where(sql`${t.readAt} is null`),
    index("notifications_entity_idx").on(t.entityId),
    // The retention job's oldest read notifications first (decision 028).
    index("notifications_read_at_idx")
      .on(t.readAt)
      .where(sql`${t.readAt} is not null`),
    index("notifications_details_idx").on(t.detailsId),
  ]
);

/**
 * Each user's notification totals (SPEC.md section 7: count with total and unread), kept by
 * statement-level triggers on `notifications` (migration 0010), so the bell and the count call read one
 * row whatever the number of notifications (decision 028).
 */
export const notificationCounts = pgTable(
  "notification_counts",
  {
    entityId: entityId(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
    total: integer("total").notNull().default(0),
    unread: integer("unread").notNull().default(0),
  },
  (t) => [primaryKey({ name: "notification_counts_pkey", columns: [t.entityId, t.userId] })]
);

export type NotificationDetails = typeof notificationDetails.$inferSelect;
export type NewNotificationDetails = typeof notificationDetails.$inferInsert;
export type Notification = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;
