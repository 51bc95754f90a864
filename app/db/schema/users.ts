import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, index, integer, jsonb, numeric, pgTable, smallint, text, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { type Priority, type Role, ROLE_VALUES, USER_LANGUAGE_VALUES, USER_STATUS_VALUES, UserLanguage, UserStatus } from "../enums";
import { archivedAt, createdAt, entityId, id, inValues, notArchived, timestamptz, updatedAt } from "./columns";
import { buildings, facilities } from "./facilities";
import { storedFiles } from "./files";

/** `users.notification_settings`: which new incidents the user is notified about. */
export interface NotificationSettings {
  /** Incident priorities to be notified about (empty: all). */
  priorities: Priority[];
  /** Buildings to be notified about (empty: all the user can access). */
  buildingIds: number[];
}

/** Staff accounts. Email is unique across all entities (login is by email only). */
export const users = pgTable(
  "users",
  {
    id: id(),
    entityId: entityId(),
    email: text("email").notNull(),
    /** argon2 hash; null until the account is activated. */
    passwordHash: text("password_hash"),
    name: text("name").notNull(),
    surname: text("surname").notNull(),
    role: smallint("role").$type<Role>().notNull(),
    language: smallint("language").$type<UserLanguage>().notNull().default(UserLanguage.EN),
    status: smallint("status").$type<UserStatus>().notNull().default(UserStatus.INACTIVE),
    /** Notified when a new incident is reported (filtered by notification_settings). */
    receiveNotification: boolean("receive_notification").notNull().default(false),
    notificationSettings: jsonb("notification_settings")
      .$type<NotificationSettings>()
      .notNull()
      .default({ priorities: [], buildingIds: [] }),
    pictureFileId: uuid("picture_file_id").references((): AnyPgColumn => storedFiles.id),
    lastLoginAt: timestamptz("last_login_at"),
    /** The secret of the person's calendar feed URL (their tasks as iCalendar); null until asked for. */
    calendarToken: text("calendar_token"),
    /** The person's hourly rate in the entity's currency (administrators set it); null: the entity's default. */
    hourlyRate: numeric("hourly_rate", { precision: 10, scale: 2 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    // Unique among users not archived: an archived user's address can be invited again.
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`).where(notArchived(t.archivedAt)),
    uniqueIndex("users_calendar_token_key").on(t.calendarToken).where(sql`${t.calendarToken} is not null`),
    index("users_entity_list_idx").on(t.entityId, t.surname, t.name).where(notArchived(t.archivedAt)),
    check("users_role_check", inValues(t.role, ROLE_VALUES)),
    check("users_language_check", inValues(t.language, USER_LANGUAGE_VALUES)),
    check("users_status_check", inValues(t.status, USER_STATUS_VALUES)),
    check("users_hourly_rate_check", sql`${t.hourlyRate} >= 0`),
  ]
);

/**
 * Facilities and buildings a technician or facility manager may access.
 * A facility grants all its current and future buildings. Exactly one of
 * facility_id / building_id is set.
 */
export const userLinkedObjects = pgTable(
  "user_linked_objects",
  {
    id: id(),
    entityId: entityId(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
    facilityId: integer("facility_id").references((): AnyPgColumn => facilities.id, {
      onDelete: "cascade",
    }),
    buildingId: integer("building_id").references((): AnyPgColumn => buildings.id, {
      onDelete: "cascade",
    }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("user_linked_objects_user_object_key").on(t.userId, t.facilityId, t.buildingId).nullsNotDistinct(),
    index("user_linked_objects_entity_idx").on(t.entityId),
    index("user_linked_objects_facility_idx").on(t.facilityId),
    index("user_linked_objects_building_idx").on(t.buildingId),
    check("user_linked_objects_one_object_check", sql`num_nonnulls(${t.facilityId}, ${t.buildingId}) = 1`),
  ]
);

/**
 * Refresh tokens, rotated on every use. Only a hash of the token is stored.
 * All tokens of one login share `family_id`; presenting a token that was
 * already rotated (`rotated_at` set) is reuse: revoke the whole family.
 */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: id(),
    entityId: entityId(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
    familyId: uuid("family_id").notNull(),
    /** SHA-256 (hex or base64url) of the opaque token. */
    tokenHash: text("token_hash").notNull().unique("refresh_tokens_token_hash_key"),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    /** Set when this token was exchanged for a new one. */
    rotatedAt: timestamptz("rotated_at"),
    /** The token issued in exchange for this one. */
    replacedById: integer("replaced_by_id").references((): AnyPgColumn => refreshTokens.id, {
      onDelete: "set null",
    }),
    /** Set on logout, password change, account disabling or detected reuse. */
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    index("refresh_tokens_entity_idx").on(t.entityId),
    index("refresh_tokens_user_idx").on(t.userId),
    index("refresh_tokens_family_idx").on(t.familyId),
    index("refresh_tokens_expires_idx").on(t.expiresAt),
    check("refresh_tokens_expiry_check", sql`${t.expiresAt} > ${t.createdAt}`),
  ]
);

/** Single-use password-reset tokens (hash only). */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: id(),
    entityId: entityId(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique("password_reset_tokens_token_hash_key"),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [
    index("password_reset_tokens_entity_idx").on(t.entityId),
    index("password_reset_tokens_user_idx").on(t.userId),
    index("password_reset_tokens_expires_idx").on(t.expiresAt),
    check("password_reset_tokens_expiry_check", sql`${t.expiresAt} > ${t.createdAt}`),
  ]
);

/**
 * Single-use email-verification / account-activation tokens (hash only).
 * Consuming one sets the password (if needed) and moves the user from INACTIVE to ACTIVE.
 */
export const emailVerificationTokens = pgTable(
  "email_verification_tokens",
  {
    id: id(),
    entityId: entityId(),
    userId: integer("user_id")
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: "cascade" }),
    /** The address being verified (the user's email at the time the token was sent). */
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull().unique("email_verification_tokens_token_hash_key"),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [
    index("email_verification_tokens_entity_idx").on(t.entityId),
    index("email_verification_tokens_user_idx").on(t.userId),
    index("email_verification_tokens_expires_idx").on(t.expiresAt),
    check("email_verification_tokens_expiry_check", sql`${t.expiresAt} > ${t.createdAt}`),
  ]
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type UserLinkedObject = typeof userLinkedObjects.$inferSelect;
export type RefreshToken = typeof refreshTokens.$inferSelect;
