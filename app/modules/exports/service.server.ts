import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, asc, count, eq, inArray, isNotNull, isNull, lte, ne } from "drizzle-orm";
import { assertCan, can, personActor } from "~/core/actor";
import { type ContextServices, entitySystemContext, type FileStore, type ServiceContext } from "~/core/context.server";
import { resolveInput, type Input } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { DataJobKind, DataJobStatus, type ExportType, UserStatus } from "~/db/enums";
import { dataJobs, storedFiles, users } from "~/db/schema";
import { localeByUserLanguage } from "~/i18n";
import { now } from "~/lib/clock.server";
import { dayIn } from "~/lib/dates";
import { ConflictError, isDiskFullError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { parseInput } from "~/lib/validation";
import { exportReady } from "./changes.server";
import { exportDefinition } from "./definitions.server";
import { exportFormatter, type ExportT } from "./format";
import { exportJob } from "./jobs.server";
import { type ExportView, getExport } from "./queries.server";
import { EXPORT_TYPE_SLUGS, type ExportFormat, filterSearchParams, type StartExportInput, StartExportSchema } from "./schema";
import { MIME_TYPES, writeExport } from "./writer.server";

/**
 * The exports' verbs (issue 49, decision 055):
 *
 * - `startExport` (a person, from the export tab or POST /api/exports): checks the filters, writes the
 *   data job (kind EXPORT, queued) and its queue job in one transaction;
 * - `runExport` (the `export` job): as the system, on behalf of the requester and with the requester's
 *   reach, streams the rows into a file of the entity, then in one transaction records the file, marks
 *   the job done with its expiry and emits "export ready" (the requester's notification);
 * - `expireExports` (the nightly `export-expiry` schedule): deletes the files whose time has come.
 */
export const EXPORT_ACTOR = "export";
/** Exports one person may have queued or running at once; more is 409 (one export of a million rows takes a minute). */
export const MAX_ACTIVE_EXPORTS = 3;

export async function startExport(ctx: ServiceContext, rawInput: Input<StartExportInput>): Promise<ExportView> {
  assertCan(ctx.actor, "export", "data");
  const input = parseInput(StartExportSchema, await resolveInput(rawInput));
  const type = EXPORT_TYPE_SLUGS[input.type];
  // The filters are read now, as the job will read them: a bad one is refused here, never stored.
  exportDefinition(type).parseFilters(filterSearchParams(input.filters));
  const requesterId = ctx.actor!.id!;
  const id = await withTx(ctx, async (tx, effects) => {
    const [{ active }] = await tx.db
      .select({ active: count() })
      .from(dataJobs)
      .where(
        and(
          eq(dataJobs.entityId, ctx.entityId),
          eq(dataJobs.kind, DataJobKind.EXPORT),
          eq(dataJobs.requestedById, requesterId),
          inArray(dataJobs.status, [DataJobStatus.QUEUED, DataJobStatus.RUNNING]),
        ),
      );
    if (active >= MAX_ACTIVE_EXPORTS) throw new ConflictError("exports:errors.tooMany", "TOO_MANY_EXPORTS");
    const [row] = await tx.db
      .insert(dataJobs)
      .values({
        entityId: ctx.entityId,
        kind: DataJobKind.EXPORT,
        exportType: type,
        status: DataJobStatus.QUEUED,
        params: { format: input.format, filters: input.filters },
        requestedById: requesterId,
      })
      .returning({ id: dataJobs.id });
    const queueJobId = await effects.enqueue(exportJob, { entityId: ctx.entityId, dataJobId: row.id });
    await tx.db
      .update(dataJobs)
      .set({ queueJobId })
      .where(and(eq(dataJobs.id, row.id), eq(dataJobs.entityId, ctx.entityId)));
    await effects.audit({ action: "export.start", recordType: "dataJob", recordId: row.id, details: { type: input.type, format: input.format } });
    return row.id;
  });
  return getExport(ctx, id);
}

export interface RunExportOptions {
  /** The requester's texts (`exports` namespace) in their language; the job passes the app's i18n. */
  texts(locale: string): ExportT;
  /** Hours the file is kept (EXPORT_RETENTION_HOURS). */
  retentionHours: number;
  /** Least time between two progress writes (ms). */
  progressEveryMs?: number;
}

/** What stopped an export before its file was written (stored as the job's `error_message`). */
type ExportFailure = "requester" | "failed" | "diskFull";

/**
 * Runs one export (the `export` job): nothing when it is done or gone. A failure marks it failed (the
 * requester sees it on the tab and may start it again) and removes a half-written file.
 */
export async function runExport(
  services: ContextServices,
  payload: { entityId: number; dataJobId: number },
  options: RunExportOptions,
): Promise<{ status: DataJobStatus; rows: number }> {
  const ctx = await entitySystemContext(services, payload.entityId, EXPORT_ACTOR);
  const store = services.files;
  if (!store) throw new Error("export: no file store");
  const where = and(eq(dataJobs.id, payload.dataJobId), eq(dataJobs.entityId, ctx.entityId), eq(dataJobs.kind, DataJobKind.EXPORT));
  const [job] = await ctx.db.select().from(dataJobs).where(where).limit(1);
  if (!job || job.status === DataJobStatus.SUCCEEDED || job.status === DataJobStatus.FAILED || job.exportType === null) {
    return { status: job?.status ?? DataJobStatus.FAILED, rows: 0 };
  }
  const fail = async (reason: ExportFailure) => {
    await ctx.db.update(dataJobs).set({ status: DataJobStatus.FAILED, errorMessage: reason, finishedAt: new Date(now()) }).where(where);
    return { status: DataJobStatus.FAILED, rows: 0 };
  };

  // The requester's reach, read now: an archived or disabled person, or one who may no longer export,
  // gets nothing.
  const [person] = await ctx.db
    .select({ id: users.id, role: users.role, language: users.language })
    .from(users)
    .where(and(eq(users.id, job.requestedById ?? -1), eq(users.entityId, ctx.entityId), isNull(users.archivedAt), ne(users.status, UserStatus.DISABLED)));
  const actor = person ? personActor(person) : null;
  if (!person || !can(actor, "export", "data")) return fail("requester");
  const locale = localeByUserLanguage[person.language] ?? "en";
  const reader: ServiceContext = { ...ctx, actor, locale, uow: undefined };

  const type = job.exportType as ExportType;
  const definition = exportDefinition(type);
  const params = job.params as { format?: ExportFormat; filters?: Record<string, string | string[]> };
  const format: ExportFormat = params.format === "csv" ? "csv" : "xlsx";
  const text = options.texts(locale);
  const formatter = exportFormatter(text, ctx.timeZone);

  const fileId = randomUUID();
  const storageKey = `${ctx.entityId}/${fileId}`;
  const target = path.join(store.root, storageKey);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await ctx.db.update(dataJobs).set({ status: DataJobStatus.RUNNING, startedAt: new Date(now()), progress: 0, processedRows: 0 }).where(where);

  let total: number | null = null;
  let written = 0;
  let lastWrite = 0;
  const every = options.progressEveryMs ?? 1000;
  try {
    const filters = definition.parseFilters(filterSearchParams(params.filters ?? {}));
    const rows = await writeExport({
      ctx: reader,
      definition,
      filters,
      format,
      formatter,
      target,
      sheetName: text(`types.${type}`),
      onTotal(n) {
        total = n;
        void ctx.db.update(dataJobs).set({ totalRows: n }).where(where).catch(() => undefined);
      },
      async onProgress(processed) {
        written = processed;
        const at = Date.now();
        if (at - lastWrite < every) return;
        lastWrite = at;
        const progress = total ? Math.min(99, Math.floor((processed * 100) / total)) : 0;
        await ctx.db.update(dataJobs).set({ processedRows: processed, progress }).where(where);
      },
    });
    const { size } = await fs.stat(target);
    const fileName = `${text(`files.${type}`)}-${dayIn(now(), ctx.timeZone)}.${format}`;
    const finishedAt = new Date(now());
    await withTx(ctx, async (tx, effects) => {
      await tx.db.insert(storedFiles).values({
        id: fileId,
        entityId: ctx.entityId,
        storageKey,
        originalName: fileName,
        mimeType: MIME_TYPES[format],
        sizeBytes: size,
        createdById: person.id,
      });
      await tx.db
        .update(dataJobs)
        .set({
          status: DataJobStatus.SUCCEEDED,
          progress: 100,
          totalRows: rows,
          processedRows: rows,
          resultFileId: fileId,
          finishedAt,
          expiresAt: new Date(finishedAt.getTime() + options.retentionHours * 3_600_000),
        })
        .where(where);
      await effects.emit(exportReady, { dataJobId: job.id, exportType: type, fileId, requestedById: person.id, rows });
    });
    return { status: DataJobStatus.SUCCEEDED, rows };
  } catch (err) {
    await fs.rm(target, { force: true });
    if (isDiskFullError(err)) {
      logger().error({ entityId: ctx.entityId, dataJobId: job.id, written }, "the data folder is full: an export could not be written");
      return fail("diskFull");
    }
    logger().error({ err, entityId: ctx.entityId, dataJobId: job.id, written }, "export failed");
    return fail("failed");
  }
}

/**
 * Deletes the files of the exports whose time has passed (every entity), marking each stored file
 * deleted and removing its bytes; the data job stays, as an expired export. Answers how many.
 */
export async function expireExports(services: ContextServices & { files?: FileStore }, at: Date = new Date(now())): Promise<number> {
  // tenant-scope: across entities, the retention job removes expired export files of every entity
  const due = await services.db
    .select({ entityId: dataJobs.entityId, fileId: dataJobs.resultFileId, storageKey: storedFiles.storageKey })
    .from(dataJobs)
    .innerJoin(storedFiles, and(eq(storedFiles.id, dataJobs.resultFileId), eq(storedFiles.entityId, dataJobs.entityId)))
    .where(and(eq(dataJobs.kind, DataJobKind.EXPORT), isNotNull(dataJobs.resultFileId), lte(dataJobs.expiresAt, at), isNull(storedFiles.deletedAt)))
    .orderBy(asc(dataJobs.expiresAt))
    .limit(1000);
  let removed = 0;
  for (const file of due) {
    await services.db
      .update(storedFiles)
      .set({ deletedAt: at })
      .where(and(eq(storedFiles.id, file.fileId!), eq(storedFiles.entityId, file.entityId), isNull(storedFiles.deletedAt)));
    if (services.files) await fs.rm(path.join(services.files.root, file.storageKey), { force: true });
    removed++;
  }
  if (removed) logger().info({ removed }, "expired export files deleted");
  return removed;
}

