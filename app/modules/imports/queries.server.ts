import { and, desc, eq, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { DataJobKind } from "~/db/enums";
import { type DataJobLineError, dataJobs, storedFiles, users } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";

/**
 * The imports of an entity (rows of kind IMPORT of `data_jobs`), for the import tab and the REST API:
 * managers and administrators of the entity only; another entity's import is not found.
 */
export interface ImportJobView {
  id: number;
  importType: number;
  status: number;
  progress: number;
  totalRows: number | null;
  processedRows: number;
  failedRows: number;
  errorCode: number;
  errorMessage: string | null;
  errors: DataJobLineError[];
  fileName: string | null;
  requestedBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export const importNotFound = () => new NotFoundError("imports:errors.notFound", "IMPORT_NOT_FOUND");

const columns = {
  id: dataJobs.id,
  importType: dataJobs.importType,
  status: dataJobs.status,
  progress: dataJobs.progress,
  totalRows: dataJobs.totalRows,
  processedRows: dataJobs.processedRows,
  failedRows: dataJobs.failedRows,
  errorCode: dataJobs.errorCode,
  errorMessage: dataJobs.errorMessage,
  errors: dataJobs.errors,
  fileName: storedFiles.originalName,
  requestedBy: sql<string | null>`nullif(trim(coalesce(${users.name}, '') || ' ' || coalesce(${users.surname}, '')), '')`,
  createdAt: dataJobs.createdAt,
  startedAt: dataJobs.startedAt,
  finishedAt: dataJobs.finishedAt,
};

type Row = { [K in keyof typeof columns]: unknown };

function view(row: Row): ImportJobView {
  const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d === null ? null : String(d));
  return { ...(row as unknown as ImportJobView), createdAt: iso(row.createdAt)!, startedAt: iso(row.startedAt), finishedAt: iso(row.finishedAt) };
}

function base(ctx: ServiceContext) {
  // tenant-scope: scoped by its callers' where, each comparing dataJobs.entityId with ctx.entityId
  return ctx.db
    .select(columns)
    .from(dataJobs)
    .leftJoin(storedFiles, and(eq(storedFiles.id, dataJobs.sourceFileId), eq(storedFiles.entityId, dataJobs.entityId)))
    .leftJoin(users, and(eq(users.id, dataJobs.requestedById), eq(users.entityId, dataJobs.entityId)));
}

/** The entity's latest imports, newest first. */
export async function listImportJobs(ctx: ServiceContext, limit = 20): Promise<ImportJobView[]> {
  assertCan(ctx.actor, "import", "data");
  const rows = await base(ctx)
    .where(and(eq(dataJobs.entityId, ctx.entityId), eq(dataJobs.kind, DataJobKind.IMPORT)))
    .orderBy(desc(dataJobs.createdAt), desc(dataJobs.id))
    .limit(Math.min(Math.max(limit, 1), 100));
  return rows.map(view);
}

/** One import of the entity: its status, progress and errors. */
export async function getImportJob(ctx: ServiceContext, id: number): Promise<ImportJobView> {
  assertCan(ctx.actor, "import", "data");
  const [row] = await base(ctx).where(and(eq(dataJobs.id, id), eq(dataJobs.entityId, ctx.entityId), eq(dataJobs.kind, DataJobKind.IMPORT)));
  if (!row) throw importNotFound();
  return view(row);
}
