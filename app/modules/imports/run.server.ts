import { and, eq, inArray, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import { type ContextServices, entitySystemContext, type ServiceContext } from "~/core/context.server";
import type { JobRun } from "~/core/jobs.server";
import { withTx } from "~/core/unit-of-work.server";
import { BulkUploadErrorCode, BulkUploadType, DataJobKind, DataJobStatus, UserStatus } from "~/db/enums";
import { type DataJob, type DataJobLineError, dataJobs, users } from "~/db/schema";
import { isDomainError } from "~/lib/errors";
import { fieldInput } from "~/lib/fields";
import { logger } from "~/lib/logger.server";
import { importEquipmentItemsBulk } from "~/modules/equipment/items.server";
import { createCategoriesBulk, createEquipmentTypesBulk } from "~/modules/equipment/service.server";
import { createBuildingsBulk, createFacilitiesBulk } from "~/modules/facilities/service.server";
import { readStoredFile } from "~/modules/files/storage.server";
import { requesterActor } from "~/modules/api-tokens/requester.server";
import { createIncidentTypesBulk } from "~/modules/incident-types/service.server";
import { createMaintenanceTypesBulk } from "~/modules/maintenance/service.server";
import { createRoomsBulk, createRoomTypesBulk } from "~/modules/rooms/service.server";
import { importFinished } from "./changes.server";
import { type CheckedRow, checkSheet, definitionOf, ImportFileError, ImportRowsError } from "./check.server";
import type { ImportTypeDefinition } from "./columns";
import { readSheet } from "./parse.server";

/**
 * The import job's work (decision 054): ALL lines or none, in one transaction, through the areas' bulk
 * verbs, written as the requester (the person who started the import, or the API token they started it
 * with: `requesterActor`), so their reach decides and the audit rows name them; the job's own
 * bookkeeping (progress, failure) is the system's.
 */
const IMPORT_ACTOR = "import";
/**
 * Lines written per bulk call: progress is reported between them, and on PostgreSQL the pages served
 * beside the import wait for one chunk's statement building at most (docs/benchmarks.md).
 */
const CHUNK = 1_000;
const ACTIVE = [DataJobStatus.QUEUED, DataJobStatus.RUNNING];

/** The bulk verb of each import type (each writes its rows in the caller's unit of work). */
const BULK_WRITERS = {
  [BulkUploadType.FACILITY]: createFacilitiesBulk,
  [BulkUploadType.BUILDING]: createBuildingsBulk,
  [BulkUploadType.ROOM_TYPES]: createRoomTypesBulk,
  [BulkUploadType.EQUIPMENT_CATEGORIES]: createCategoriesBulk,
  [BulkUploadType.EQUIPMENT_TYPES]: createEquipmentTypesBulk,
  [BulkUploadType.MAINTENANCE_TYPES]: createMaintenanceTypesBulk,
  [BulkUploadType.ROOMS]: createRoomsBulk,
  [BulkUploadType.INCIDENT_TYPE]: createIncidentTypesBulk,
  [BulkUploadType.EQUIPMENT_ITEMS]: importEquipmentItemsBulk,
} satisfies Record<BulkUploadType, (ctx: ServiceContext, input: never[], options: { details: Record<string, unknown> }) => Promise<unknown>>;

/** The rows of a checked file as the area's bulk verb takes them: each line's values under the declared fields' input keys. */
async function writeRows(ctx: ServiceContext, definition: ImportTypeDefinition, rows: CheckedRow[], options: { details: Record<string, unknown> }) {
  const input = rows.map((r) => fieldInput(definition.fields, r.values)) as never[];
  const details = { details: options.details };
  return BULK_WRITERS[definition.type](ctx, input, details);
}

/** Test hooks: called inside the import's transaction after each chunk is written (a crash injected there). */
export interface ImportHooks {
  afterChunk?(written: number): void | Promise<void>;
}

/** Marks the job failed and emits "import finished" (failure), in one transaction; once. */
async function markFailed(ctx: ServiceContext, job: DataJob, failure: { errorCode: BulkUploadErrorCode; errorMessage: string; errors?: DataJobLineError[] }) {
  await withTx(ctx, async (tx, effects) => {
    const [row] = await tx.db
      .update(dataJobs)
      .set({
        status: DataJobStatus.FAILED,
        errorCode: failure.errorCode,
        errorMessage: failure.errorMessage,
        errors: failure.errors ?? [],
        failedRows: new Set((failure.errors ?? []).map((e) => e.line)).size,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(dataJobs.id, job.id), eq(dataJobs.entityId, ctx.entityId), eq(dataJobs.kind, DataJobKind.IMPORT), inArray(dataJobs.status, ACTIVE)))
      .returning({ id: dataJobs.id });
    if (!row) return;
    await effects.emit(importFinished, {
      dataJobId: job.id,
      importType: job.importType!,
      succeeded: false,
      requestedById: job.requestedById,
      rows: 0,
      errorCode: failure.errorCode,
    });
  });
}

/**
 * Runs one import (the `import` job): the file checked again (for the requester's reach, inside the
 * transaction) and every line written through the area's bulk verb, all in ONE transaction with the
 * job's success and its "import finished" change; faults of the file end the job failed with them
 * (no retry: the file will not change). Any other failure rolls everything back: the queue tries again
 * (the job waits, QUEUED) and, at the last attempt, the job is marked failed and its requester told.
 * Progress is written beside the transaction, seen from outside while it runs (PostgreSQL).
 */
export async function runImport(services: ContextServices, payload: { dataJobId: number; entityId: number }, run: Pick<JobRun, "attempt" | "maxAttempts">, hooks: ImportHooks = {}): Promise<void> {
  const log = logger();
  const system = await entitySystemContext(services, payload.entityId, IMPORT_ACTOR);
  const [job] = await services.db
    .select()
    .from(dataJobs)
    .where(and(eq(dataJobs.id, payload.dataJobId), eq(dataJobs.entityId, payload.entityId), eq(dataJobs.kind, DataJobKind.IMPORT)));
  if (!job || !ACTIVE.includes(job.status as (typeof ACTIVE)[number])) return; // gone, or finished by an earlier run
  const definition = definitionOf(job.importType);
  await services.db
    .update(dataJobs)
    .set({ status: DataJobStatus.RUNNING, startedAt: new Date(), progress: 1, processedRows: 0, updatedAt: new Date() })
    .where(and(eq(dataJobs.id, job.id), eq(dataJobs.entityId, payload.entityId)));

  // Progress beside the transaction: never awaited inside it (on the embedded database it waits for the
  // transaction to end, and then finds the job no longer running, and changes nothing).
  let progressWrites: Promise<unknown> = Promise.resolve();
  const progress = (processed: number, total: number) => {
    const percent = Math.min(99, Math.max(1, Math.round((processed / Math.max(total, 1)) * 100)));
    progressWrites = progressWrites
      .then(() =>
        services.db
          .update(dataJobs)
          .set({ progress: percent, processedRows: processed, updatedAt: new Date() })
          .where(and(eq(dataJobs.id, job.id), eq(dataJobs.entityId, payload.entityId), eq(dataJobs.status, DataJobStatus.RUNNING))),
      )
      .catch((err: unknown) => log.warn({ err, dataJobId: job.id }, "import progress not written"));
  };

  try {
    const [requester] = job.requestedById
      ? await services.db
          .select({ id: users.id, role: users.role })
          .from(users)
          .where(and(eq(users.id, job.requestedById), eq(users.entityId, payload.entityId), eq(users.status, UserStatus.ACTIVE), sql`${users.archivedAt} is null`))
      : [];
    // Whoever started it must still be allowed to, as they asked: through an API token, with the token
    // as it is now (its facilities, its role), never with its maker's whole reach (issue 60 item 9).
    const tokenId = (job.params as { tokenId?: number } | null)?.tokenId;
    const actor = requester ? await requesterActor(services.db, payload.entityId, requester, tokenId) : null;
    if (!actor) throw new ImportFileError(BulkUploadErrorCode.NONE, "errors.forbidden", "FORBIDDEN");
    assertCan(actor, "import", "data");
    if (!job.sourceFileId || !services.files) throw new Error(`import ${job.id}: no source file`);
    const { bytes } = await readStoredFile(system, services.files, job.sourceFileId);
    const sheet = await readSheet(bytes);

    const written = await withTx(system, async (tx, effects) => {
      // The lines are checked and written as the requester: their reach, their name on the audit rows.
      const asRequester: ServiceContext = { ...tx, actor };
      const checked = await checkSheet(asRequester, definition, sheet);
      if (checked.errors.length > 0) throw new ImportRowsError({ type: definition.type, total: checked.rows.length, errors: checked.errors });
      progress(0, checked.rows.length);
      let count = 0;
      for (let start = 0; start < checked.rows.length; start += CHUNK) {
        const ids = await writeRows(asRequester, definition, checked.rows.slice(start, start + CHUNK), { details: { dataJobId: job.id } });
        count += ids.length;
        await hooks.afterChunk?.(count);
        progress(count, checked.rows.length);
      }
      await tx.db
        .update(dataJobs)
        .set({ status: DataJobStatus.SUCCEEDED, progress: 100, totalRows: checked.rows.length, processedRows: count, errorCode: BulkUploadErrorCode.NONE, errors: [], finishedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(dataJobs.id, job.id), eq(dataJobs.entityId, payload.entityId)));
      await effects.emit(importFinished, { dataJobId: job.id, importType: definition.type, succeeded: true, requestedById: job.requestedById, rows: count, errorCode: BulkUploadErrorCode.NONE });
      return count;
    });
    await progressWrites;
    log.info({ dataJobId: job.id, entityId: payload.entityId, rows: written }, "import done");
  } catch (error) {
    await progressWrites;
    if (error instanceof ImportRowsError) {
      await markFailed(system, job, { errorCode: BulkUploadErrorCode.INVALID_TEMPLATE_DATA, errorMessage: error.messageKey, errors: error.preview.errors });
      return;
    }
    if (error instanceof ImportFileError) {
      await markFailed(system, job, { errorCode: error.errorCode, errorMessage: error.messageKey });
      return;
    }
    if (isDomainError(error)) {
      // The entity changed under the import (a parent archived meanwhile): the file's check will say what.
      await markFailed(system, job, { errorCode: BulkUploadErrorCode.INVALID_TEMPLATE_DATA, errorMessage: error.messageKey });
      return;
    }
    const last = (run.attempt ?? 1) >= (run.maxAttempts ?? 1);
    if (last) {
      await markFailed(system, job, { errorCode: BulkUploadErrorCode.NONE, errorMessage: "imports:errors.tryAgain" });
    } else {
      await services.db
        .update(dataJobs)
        .set({ status: DataJobStatus.QUEUED, progress: 0, processedRows: 0, updatedAt: new Date() })
        .where(and(eq(dataJobs.id, job.id), eq(dataJobs.entityId, payload.entityId), eq(dataJobs.status, DataJobStatus.RUNNING)));
    }
    throw error;
  }
}

