import { and, eq, inArray, sql } from "drizzle-orm";
import { personWhoCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { withTx } from "~/core/unit-of-work.server";
import { BulkUploadErrorCode, DataJobKind, DataJobStatus } from "~/db/enums";
import { type DataJob, dataJobs } from "~/db/schema";
import { ConflictError, ValidationError } from "~/lib/errors";
import { storeFile } from "~/modules/files/storage.server";
import { discardFiles, type FilesContext, type Upload } from "~/modules/files/uploads.server";
import { checkSheet, definitionOf, ImportFileError, type ImportPreview, ImportRowsError } from "./check.server";
import { importJob } from "./jobs.server";
import { readSheet } from "./parse.server";
import { AUDIT } from "~/core/audit-actions";

/**
 * Bulk import (issue 49, decision 054): `previewImport` checks an uploaded file and lists every fault;
 * `startImport` checks it again, stores it and queues the import job (one import at a time per
 * entity); the job (`runImport`) acts as the person who started it (through the API token they used) and writes
 * ALL lines or none, in one transaction, through the areas' bulk verbs, then emits "import finished".
 * Only rows of kind IMPORT of `data_jobs` are touched here.
 */

export interface ImportFileInput {
  type: unknown;
  file: Upload | null | undefined;
}

/** The most bytes an import file may have: the file store's upload limit (UPLOAD_MAX_BYTES). */
export const importMaxBytes = (ctx: Pick<FilesContext, "files">) => ctx.files.maxBytes;

export function fileTooLarge(maxBytes: number) {
  return new ImportFileError(BulkUploadErrorCode.NONE, "imports:errors.tooLarge", "FILE_TOO_LARGE", { size: formatSize(maxBytes) });
}

export function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

async function checkUpload(ctx: FilesContext, input: ImportFileInput) {
  const definition = definitionOf(input.type);
  const file = input.file;
  if (!file || (file.bytes.byteLength === 0 && file.name === "")) throw new ValidationError({ file: ["imports:errors.fileRequired"] }, "imports:errors.fileRequired", "FILE_REQUIRED");
  if (file.bytes.byteLength > importMaxBytes(ctx)) throw fileTooLarge(importMaxBytes(ctx));
  const sheet = await readSheet(file.bytes);
  const result = await checkSheet(ctx, definition, sheet);
  return { definition, result, file };
}

/** Checks an import file for the acting person (their reach) and writes nothing. */
export async function previewImport(ctx: FilesContext, input: ImportFileInput): Promise<ImportPreview> {
  personWhoCan(ctx.actor, "import", "data");
  const { definition, result } = await checkUpload(ctx, input);
  return { type: definition.type, total: result.rows.length, errors: result.errors };
}

const ACTIVE = [DataJobStatus.QUEUED, DataJobStatus.RUNNING];

/** Whether an import of the entity is waiting or running. */
export async function importInProgress(ctx: ServiceContext): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: dataJobs.id })
    .from(dataJobs)
    .where(and(eq(dataJobs.entityId, ctx.entityId), eq(dataJobs.kind, DataJobKind.IMPORT), inArray(dataJobs.status, ACTIVE)))
    .limit(1);
  return Boolean(row);
}

const inProgress = () => new ConflictError("imports:errors.inProgress", "IMPORT_IN_PROGRESS");

/**
 * Checks the file, then (when every line is right) stores it and queues its import: the job row and the
 * queue's job in one transaction. A file with faulty lines throws `ImportRowsError` (nothing written);
 * another import of the entity waiting or running is a Conflict.
 */
export async function startImport(ctx: FilesContext, input: ImportFileInput): Promise<DataJob> {
  const person = personWhoCan(ctx.actor, "import", "data");
  const tokenId = ctx.actor?.kind === "token" ? ctx.actor.tokenId : undefined;
  if (await importInProgress(ctx)) throw inProgress();
  const { definition, result, file } = await checkUpload(ctx, input);
  if (result.errors.length > 0) throw new ImportRowsError({ type: definition.type, total: result.rows.length, errors: result.errors });
  return withTx(ctx, async (tx, effects) => {
    // One import at a time per entity: the entity's row serialises two starts.
    await tx.db.execute(sql`select id from entities where id = ${ctx.entityId} for no key update`);
    if (await importInProgress(tx)) throw inProgress();
    const zip = file.bytes[0] === 0x50 && file.bytes[1] === 0x4b;
    const base = file.name.replace(/\.[^.]*$/, "").slice(0, 100) || definition.slug;
    const stored = await storeFile(tx, tx.files, { bytes: file.bytes, originalName: `${base}.${zip ? "xlsx" : "csv"}`, kind: "document", field: "file" });
    effects.onRollback(() => discardFiles(tx.files, [stored]));
    const [job] = await tx.db
      .insert(dataJobs)
      .values({
        entityId: ctx.entityId,
        kind: DataJobKind.IMPORT,
        importType: definition.type,
        status: DataJobStatus.QUEUED,
        totalRows: result.rows.length,
        sourceFileId: stored.id,
        requestedById: person.id,
        // Asked through an API token: the job runs with the token's reach, not its maker's (issue 60 item 9).
        params: { fileName: file.name.slice(0, 200), ...(tokenId === undefined ? {} : { tokenId }) },
      })
      .returning();
    const queueJobId = await effects.enqueue(importJob, { dataJobId: job.id, entityId: ctx.entityId });
    const [updated] = await tx.db
      .update(dataJobs)
      .set({ queueJobId })
      .where(and(eq(dataJobs.id, job.id), eq(dataJobs.entityId, ctx.entityId)))
      .returning();
    await effects.audit({ action: AUDIT.import.start, recordType: "dataJob", recordId: job.id, details: { importType: definition.type, rows: result.rows.length } });
    return updated;
  });
}

