import { sql } from "drizzle-orm";
import { check, foreignKey, index, integer, jsonb, pgTable, real, smallint, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, inValues, timestamptz, updatedAt } from "./columns";
import { entities } from "./entities";
import { storedFiles } from "./files";
import { users } from "./users";

/**
 * Printing (issue 48, decision 053). Each report identifier's print status and last print time live on
 * `report_identifiers`; these two tables hold the rest.
 */

/**
 * The calibration offset of an entity's printer, in millimetres: added to every label's position on the
 * A4 21-up sheet (positive x moves right, positive y moves down). One row per entity, absent = no offset.
 */
export const printSettings = pgTable(
  "print_settings",
  {
    entityId: integer("entity_id").primaryKey(),
    offsetXMm: real("offset_x_mm").notNull().default(0),
    offsetYMm: real("offset_y_mm").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The foreign keys are named as PostgreSQL named them in migration 0026.
    foreignKey({ name: "print_settings_entity_id_fkey", columns: [t.entityId], foreignColumns: [entities.id] }),
    check("print_settings_offset_x_check", sql`${t.offsetXMm} between -10 and 10`),
    check("print_settings_offset_y_check", sql`${t.offsetYMm} between -10 and 10`),
  ]
);

/** A background print job's state. */
export const PrintJobStatus = { QUEUED: 0, DONE: 1, FAILED: 2 } as const;
export type PrintJobStatus = (typeof PrintJobStatus)[keyof typeof PrintJobStatus];

/**
 * A print too large to answer at once (more than 50 sheets): the job renders it in the background as the
 * system, stores the PDF as a file of the entity (`result_file_id`) and notifies the person who asked.
 * `params` holds the report identifiers to print, in order, and the chosen style and start cell.
 */
export const printJobs = pgTable(
  "print_jobs",
  {
    id: id(),
    entityId: integer("entity_id").notNull(),
    requestedById: integer("requested_by_id"),
    status: smallint("status").$type<PrintJobStatus>().notNull().default(PrintJobStatus.QUEUED),
    stickers: integer("stickers").notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    resultFileId: uuid("result_file_id"),
    createdAt: createdAt(),
    finishedAt: timestamptz("finished_at"),
  },
  (t) => [
    // The foreign keys are named as PostgreSQL named them in migration 0026.
    foreignKey({ name: "print_jobs_entity_id_fkey", columns: [t.entityId], foreignColumns: [entities.id] }),
    foreignKey({ name: "print_jobs_requested_by_id_fkey", columns: [t.requestedById], foreignColumns: [users.id] }),
    foreignKey({ name: "print_jobs_result_file_id_fkey", columns: [t.resultFileId], foreignColumns: [storedFiles.id] }),
    index("print_jobs_entity_created_idx").on(t.entityId, t.createdAt),
    index("print_jobs_result_file_idx").on(t.resultFileId).where(sql`${t.resultFileId} is not null`),
    check("print_jobs_status_check", inValues(t.status, Object.values(PrintJobStatus))),
    check("print_jobs_stickers_check", sql`${t.stickers} > 0`),
  ]
);

export type PrintJob = typeof printJobs.$inferSelect;
