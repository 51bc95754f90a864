import { sql } from "drizzle-orm";
import { type AnyPgColumn, check, index, integer, jsonb, pgTable, smallint, text, uuid } from "drizzle-orm/pg-core";
import { BULK_UPLOAD_ERROR_CODE_VALUES, BULK_UPLOAD_TYPE_VALUES, BulkUploadErrorCode, type BulkUploadErrorMessageType, type BulkUploadType, DATA_JOB_KIND_VALUES, DATA_JOB_STATUS_VALUES, DataJobKind, DataJobStatus, EXPORT_TYPE_VALUES, type ExportType } from "../enums";
import { createdAt, entityId, id, inValues, timestamptz, updatedAt } from "./columns";
import { storedFiles } from "./files";
import { users } from "./users";

/** `data_jobs.errors` item: a per-line import error ("missing mandatory column" naming line and column). */
export interface DataJobLineError {
  type: BulkUploadErrorMessageType;
  /** 1-based line number in the uploaded file. */
  line: number;
  column: string;
  /** The column's header text key (`namespace:path`); absent on lines checked before fields named their label: `imports:columns.<column>`. */
  label?: string;
  /** What is wrong, as an i18n key (the reader's language decides); absent: the type's own message. */
  message?: string;
  /** For a line repeating another: the line it repeats. */
  other?: number;
}

/**
 * Background import (bulk upload) and export jobs. Exactly one of
 * import_type / export_type is set, matching `kind`. Imports read
 * `source_file_id`; exports write `result_file_id` (the download link of the
 * success notification).
 */
export const dataJobs = pgTable(
  "data_jobs",
  {
    id: id(),
    entityId: entityId(),
    kind: smallint("kind").$type<DataJobKind>().notNull(),
    importType: smallint("import_type").$type<BulkUploadType>(),
    exportType: smallint("export_type").$type<ExportType>(),
    status: smallint("status").$type<DataJobStatus>().notNull().default(DataJobStatus.QUEUED),
    /** 0..100 */
    progress: smallint("progress").notNull().default(0),
    totalRows: integer("total_rows"),
    processedRows: integer("processed_rows").notNull().default(0),
    failedRows: integer("failed_rows").notNull().default(0),
    errorCode: smallint("error_code").$type<BulkUploadErrorCode>().notNull().default(BulkUploadErrorCode.NONE),
    errorMessage: text("error_message"),
    errors: jsonb("errors").$type<DataJobLineError[]>().notNull().default([]),
    /** Export filters / import options. */
    params: jsonb("params").$type<Record<string, unknown>>().notNull().default({}),
    sourceFileId: uuid("source_file_id").references((): AnyPgColumn => storedFiles.id),
    resultFileId: uuid("result_file_id").references((): AnyPgColumn => storedFiles.id),
    requestedById: integer("requested_by_id").references((): AnyPgColumn => users.id),
    /** Id of the queue job (job_queue) running it. */
    queueJobId: text("queue_job_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: timestamptz("started_at"),
    finishedAt: timestamptz("finished_at"),
    /** When an export's result file is deleted (EXPORT_RETENTION_HOURS after it was written, decision 055). */
    expiresAt: timestamptz("expires_at"),
  },
  (t) => [
    index("data_jobs_entity_created_idx").on(t.entityId, t.createdAt.desc().nullsFirst()),
    index("data_jobs_entity_active_idx")
      .on(t.entityId, t.kind)
      .where(sql`${t.status} in (${sql.raw(`${DataJobStatus.QUEUED}, ${DataJobStatus.RUNNING}`)})`),
    index("data_jobs_export_expiry_idx").on(t.expiresAt).where(sql`${t.resultFileId} is not null`),
    check("data_jobs_kind_check", inValues(t.kind, DATA_JOB_KIND_VALUES)),
    check(
      "data_jobs_type_check",
      sql`(${t.kind} = ${sql.raw(String(DataJobKind.IMPORT))} and ${t.exportType} is null and ${inValues(
        t.importType,
        BULK_UPLOAD_TYPE_VALUES
      )})
        or (${t.kind} = ${sql.raw(String(DataJobKind.EXPORT))} and ${t.importType} is null and ${inValues(
        t.exportType,
        EXPORT_TYPE_VALUES
      )})`
    ),
    check("data_jobs_status_check", inValues(t.status, DATA_JOB_STATUS_VALUES)),
    check("data_jobs_progress_check", sql`${t.progress} between 0 and 100`),
    check(
      "data_jobs_counts_check",
      sql`${t.processedRows} >= 0 and ${t.failedRows} >= 0 and (${t.totalRows} is null or ${t.totalRows} >= 0)`
    ),
    check("data_jobs_error_code_check", inValues(t.errorCode, BULK_UPLOAD_ERROR_CODE_VALUES)),
  ]
);

export type DataJob = typeof dataJobs.$inferSelect;
export type NewDataJob = typeof dataJobs.$inferInsert;
