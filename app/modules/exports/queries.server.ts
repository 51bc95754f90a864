import fs from "node:fs";
import path from "node:path";
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { FileStore, ServiceContext } from "~/core/context.server";
import { DataJobKind, type DataJobStatus, type ExportType } from "~/db/enums";
import { dataJobs, storedFiles, users } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { NotFoundError } from "~/lib/errors";
import { isEntityWide } from "~/modules/facilities/policy.server";
import { getReadableFile } from "~/modules/files/access.server";
import type { StoredFile } from "~/modules/files/storage.server";
import { type ExportFormat, type ExportTypeSlug, exportSlugOf } from "./schema";

/**
 * Reads of exports (data jobs of kind EXPORT, decision 055). An export is seen by the person who asked
 * for it, and by the administrators (who reach the whole entity, so every export's rows); a facility
 * manager never sees another manager's export (its rows may lie outside their reach). Another entity's,
 * an import, or one out of sight is "Export not found".
 */
export const exportNotFound = () => new NotFoundError("exports:errors.notFound", "EXPORT_NOT_FOUND");

/** How many exports the tab lists. */
export const RECENT_EXPORTS = 20;

export interface ExportView {
  id: number;
  type: ExportType;
  slug: ExportTypeSlug;
  format: ExportFormat;
  status: DataJobStatus;
  progress: number;
  totalRows: number | null;
  processedRows: number;
  filters: Record<string, string | string[]>;
  requestedBy: { id: number; name: string } | null;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
  /** The file is gone (its time passed): no download. */
  expired: boolean;
  /** The download (/files/{id}) while the file exists. */
  fileId: string | null;
  fileName: string | null;
  sizeBytes: number | null;
  errorMessage: string | null;
}

/** The exports the actor may see (see above), as a condition on `data_jobs`. */
export function exportSight(ctx: ServiceContext): SQL {
  assertCan(ctx.actor, "export", "data");
  return and(
    eq(dataJobs.entityId, ctx.entityId),
    eq(dataJobs.kind, DataJobKind.EXPORT),
    isEntityWide(ctx.actor) ? undefined : eq(dataJobs.requestedById, ctx.actor?.id ?? -1),
  )!;
}

function selectExports(ctx: ServiceContext) {
  // tenant-scope: scoped by its callers' where: exportSight(ctx), which compares dataJobs.entityId
  return ctx.db
    .select({
      id: dataJobs.id,
      type: dataJobs.exportType,
      status: dataJobs.status,
      progress: dataJobs.progress,
      totalRows: dataJobs.totalRows,
      processedRows: dataJobs.processedRows,
      params: dataJobs.params,
      requestedById: dataJobs.requestedById,
      requesterName: sql<string | null>`trim(${users.name} || ' ' || ${users.surname})`,
      createdAt: dataJobs.createdAt,
      finishedAt: dataJobs.finishedAt,
      expiresAt: dataJobs.expiresAt,
      errorMessage: dataJobs.errorMessage,
      fileId: storedFiles.id,
      fileName: storedFiles.originalName,
      sizeBytes: storedFiles.sizeBytes,
      fileDeletedAt: storedFiles.deletedAt,
    })
    .from(dataJobs)
    .leftJoin(users, and(eq(users.id, dataJobs.requestedById), eq(users.entityId, ctx.entityId)))
    .leftJoin(storedFiles, and(eq(storedFiles.id, dataJobs.resultFileId), eq(storedFiles.entityId, ctx.entityId)));
}

type ExportRecord = Awaited<ReturnType<ReturnType<typeof selectExports>["execute"]>>[number];

function toView(r: ExportRecord): ExportView {
  const params = (r.params ?? {}) as { format?: string; filters?: Record<string, string | string[]> };
  const expired = Boolean(r.fileDeletedAt) || (r.expiresAt !== null && r.expiresAt.getTime() <= now());
  return {
    id: r.id,
    type: r.type as ExportType,
    slug: exportSlugOf(r.type ?? -1) ?? "incidents",
    format: params.format === "csv" ? "csv" : "xlsx",
    status: r.status,
    progress: r.progress,
    totalRows: r.totalRows,
    processedRows: r.processedRows,
    filters: params.filters ?? {},
    requestedBy: r.requestedById ? { id: r.requestedById, name: r.requesterName ?? "" } : null,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    expired,
    fileId: !expired && r.fileId ? r.fileId : null,
    fileName: !expired ? r.fileName : null,
    sizeBytes: !expired ? r.sizeBytes : null,
    errorMessage: r.errorMessage,
  };
}

/** The most recent exports the actor may see, newest first, optionally of one type. */
export async function listExports(ctx: ServiceContext, options: { type?: ExportType | null; limit?: number } = {}): Promise<ExportView[]> {
  const rows = await selectExports(ctx)
    .where(and(exportSight(ctx), options.type != null ? eq(dataJobs.exportType, options.type) : undefined))
    .orderBy(desc(dataJobs.createdAt), desc(dataJobs.id))
    .limit(Math.min(Math.max(options.limit ?? RECENT_EXPORTS, 1), 100));
  return rows.map(toView);
}

/** One export the actor may see; "Export not found" otherwise. */
export async function getExport(ctx: ServiceContext, id: number): Promise<ExportView> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw exportNotFound();
  const [row] = await selectExports(ctx).where(and(eq(dataJobs.entityId, ctx.entityId), exportSight(ctx), eq(dataJobs.id, id))).limit(1);
  if (!row) throw exportNotFound();
  return toView(row);
}


/**
 * The file of an export the actor may see and download (`getExport`, then the stored file's own rule,
 * files/access.server.ts), with where its bytes lie; "Export not found" while it is not ready, after it
 * expired, or for anyone else.
 */
export async function getExportDownload(ctx: ServiceContext, store: FileStore, id: number): Promise<{ file: StoredFile; path: string }> {
  const view = await getExport(ctx, id);
  if (!view.fileId) throw exportNotFound();
  const file = await getReadableFile(ctx, view.fileId).catch(() => {
    throw exportNotFound();
  });
  const at = path.join(store.root, file.storageKey);
  if (!fs.existsSync(at)) throw exportNotFound();
  return { file, path: at };
}
