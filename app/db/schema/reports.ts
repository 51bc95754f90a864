import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, index, integer, pgTable, smallint, text, uuid } from "drizzle-orm/pg-core";
import { REPORT_TYPE_VALUES, type ReportType } from "../enums";
import { createdAt, entityId, id, inValues } from "./columns";
import { storedFiles } from "./files";
import { users } from "./users";

/** Bug reports and suggestions sent from the "Report" dialog. */
export const reports = pgTable(
  "reports",
  {
    id: id(),
    entityId: entityId(),
    userId: integer("user_id").references((): AnyPgColumn => users.id),
    type: smallint("type").$type<ReportType>().notNull(),
    message: text("message").notNull(),
    /** Optional attachment (screenshot, document). */
    fileId: uuid("file_id").references((): AnyPgColumn => storedFiles.id),
    /** Address of the screen the report was sent from. */
    pageUrl: text("page_url"),
    createdAt: createdAt(),
  },
  (t) => [
    index("reports_entity_created_idx").on(t.entityId, t.createdAt.desc().nullsFirst()),
    check("reports_type_check", inValues(t.type, REPORT_TYPE_VALUES)),
    check("reports_message_check", sql`length(${t.message}) > 0`),
  ]
);

export type Report = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;
