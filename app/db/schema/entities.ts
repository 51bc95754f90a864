import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, integer, numeric, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { addressColumns, archivedAt, createdAt, id, updatedAt } from "./columns";
import { storedFiles } from "./files";

/** An organisation (tenant). Every other table except `entity_counters` hangs off it through `entity_id`. */
export const entities = pgTable(
  "entities",
  {
    id: id(),
    name: text("name").notNull(),
    vatNumber: text("vat_number"),
    ...addressColumns(),
    billingStreetName: text("billing_street_name"),
    billingStreetNumber: text("billing_street_number"),
    billingSuffix: text("billing_suffix"),
    billingBuildingFloor: text("billing_building_floor"),
    billingAdditionalInfo: text("billing_additional_info"),
    billingPostalCode: text("billing_postal_code"),
    billingCity: text("billing_city"),
    billingCountry: text("billing_country"),
    /** When true the billing_* columns are ignored and the address is used. */
    billingSameAsAddress: boolean("billing_same_as_address").notNull().default(false),
    /** Greeting shown to occupiers who scan a QR code, one per language. */
    greetingEn: text("greeting_en"),
    greetingFr: text("greeting_fr"),
    greetingNl: text("greeting_nl"),
    /** Square logo. */
    logoFileId: uuid("logo_file_id").references((): AnyPgColumn => storedFiles.id),
    /** Background colour of stickers / theme, `#rrggbb`. */
    templateColor: text("template_color").notNull().default("#1e3a8a"),
    templateTextColor: text("template_text_color").notNull().default("#ffffff"),
    explanatoryStickerFileId: uuid("explanatory_sticker_file_id").references((): AnyPgColumn => storedFiles.id),
    /** IANA time zone of the entity: the dashboard's months (migration 0011). */
    timeZone: text("time_zone").notNull().default("Europe/Brussels"),
    /** The hourly rate of people without one of their own, in `currency`; null: none (issue 62). */
    defaultHourlyRate: numeric("default_hourly_rate", { precision: 10, scale: 2 }),
    /** ISO 4217 code of every amount of the entity (rates, costs, material). */
    currency: text("currency").notNull().default("EUR"),
    /** How many days before an equipment item's warranty ends its managers are told (issue 63). */
    warrantyReminderDays: integer("warranty_reminder_days").notNull().default(30),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    archivedAt: archivedAt(),
  },
  (t) => [
    check("entities_template_color_check", sql`${t.templateColor} ~ '^#[0-9A-Fa-f]{6}$'`),
    check("entities_template_text_color_check", sql`${t.templateTextColor} ~ '^#[0-9A-Fa-f]{6}$'`),
    check("entities_default_hourly_rate_check", sql`${t.defaultHourlyRate} >= 0`),
    check("entities_currency_check", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("entities_warranty_reminder_days_check", sql`${t.warrantyReminderDays} between 1 and 365`),
  ]
);

/** Kinds of per-entity short-id sequences kept in `entity_counters.kind`. */
export const ENTITY_COUNTER_KINDS = ["facility", "building", "room", "incident"] as const;
export type EntityCounterKind = (typeof ENTITY_COUNTER_KINDS)[number];

/**
 * Per-entity counters that hand out `short_id`s (facilities, buildings, rooms, incidents).
 * Take the next value inside the inserting transaction:
 * `insert into entity_counters (entity_id, kind, value) values ($1, $2, 1)
 *  on conflict (entity_id, kind) do update set value = entity_counters.value + 1 returning value`.
 */
export const entityCounters = pgTable(
  "entity_counters",
  {
    entityId: integer("entity_id")
      .notNull()
      .references((): AnyPgColumn => entities.id, { onDelete: "cascade" }),
    kind: text("kind").$type<EntityCounterKind>().notNull(),
    /** Last value handed out. */
    value: integer("value").notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "entity_counters_pkey", columns: [t.entityId, t.kind] }),
    check(
      "entity_counters_kind_check",
      sql`${t.kind} in (${sql.raw(ENTITY_COUNTER_KINDS.map((k) => `'${k}'`).join(", "))})`
    ),
    check("entity_counters_value_check", sql`${t.value} >= 0`),
  ]
);

export type Entity = typeof entities.$inferSelect;
export type NewEntity = typeof entities.$inferInsert;
