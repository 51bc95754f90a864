import { and, eq, gte, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import { assertCan, can } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { apiTokens, auditLog, dataJobs, entities, incidentTypes, maintenanceTypes, rooms, roomTypes, serviceLevelTargets, users, webhookEndpoints } from "~/db/schema";
import { currentAuditAction } from "~/core/audit-actions";

/**
 * The counts of the two hubs (decision 057), each hub one query: /administration (managers and
 * administrators; the webhooks, API tokens and audit cards are administrators' only, null for anyone else)
 * and /configuration. Each count is the one its list shows: the entity's records that are not archived.
 */
export interface AdministrationCounts {
  users: number;
  /** Imports and exports made (any state). */
  dataJobs: number;
  /** Administrators only. */
  webhooks: number | null;
  /** Administrators only: the audit rows of the last AUDIT_COUNT_DAYS days. */
  auditRecent: number | null;
  /** Administrators only: the tokens in use (neither revoked nor expired). */
  apiTokens: number | null;
  /** Administrators only: the priorities with an entity-wide service-level target (issue 62). */
  serviceLevels: number | null;
  /** Administrators only: the people (not archived) with an hourly rate of their own (issue 62). */
  rates: number | null;
}

export const AUDIT_COUNT_DAYS = 30;

const countOf = (table: SQL) => sql<number>`(select count(*)::int from ${table})`;

export async function administrationCounts(ctx: ServiceContext): Promise<AdministrationCounts> {
  assertCan(ctx.actor, "open", "managerScreen");
  const e = ctx.entityId;
  const admin = can(ctx.actor, "read", "webhook");
  const [row] = await ctx.db
    .select({
      users: countOf(sql`${users} where ${users.entityId} = ${e} and ${users.archivedAt} is null`),
      dataJobs: countOf(sql`${dataJobs} where ${dataJobs.entityId} = ${e}`),
      webhooks: admin ? countOf(sql`${webhookEndpoints} where ${webhookEndpoints.entityId} = ${e}`) : sql<null>`null::int`,
      auditRecent: can(ctx.actor, "read", "audit")
        ? countOf(sql`${auditLog} where ${auditLog.entityId} = ${e} and ${auditLog.createdAt} >= now() - make_interval(days => ${AUDIT_COUNT_DAYS})`)
        : sql<null>`null::int`,
      apiTokens: admin
        ? countOf(sql`${apiTokens} where ${apiTokens.entityId} = ${e} and ${apiTokens.revokedAt} is null and ${apiTokens.expiresAt} > now()`)
        : sql<null>`null::int`,
      serviceLevels: can(ctx.actor, "read", "serviceLevel")
        ? countOf(sql`${serviceLevelTargets} where ${serviceLevelTargets.entityId} = ${e} and ${serviceLevelTargets.incidentTypeId} is null`)
        : sql<null>`null::int`,
      rates: can(ctx.actor, "read", "rate")
        ? countOf(sql`${users} where ${users.entityId} = ${e} and ${users.archivedAt} is null and ${users.hourlyRate} is not null`)
        : sql<null>`null::int`,
    })
    .from(sql`(select 1) as one`);
  return {
    users: row.users,
    dataJobs: row.dataJobs,
    webhooks: row.webhooks,
    auditRecent: row.auditRecent,
    apiTokens: row.apiTokens,
    serviceLevels: row.serviceLevels,
    rates: row.rates,
  };
}

export interface ConfigurationCounts {
  entityName: string;
  incidentTypes: number;
  maintenanceTypes: number;
  roomTypes: number;
  /** Rooms whose stickers the printing screen prints. */
  rooms: number;
}

export async function configurationCounts(ctx: ServiceContext): Promise<ConfigurationCounts> {
  assertCan(ctx.actor, "open", "managerScreen");
  const e = ctx.entityId;
  const [row] = await ctx.db
    .select({
      entityName: entities.name,
      incidentTypes: countOf(sql`${incidentTypes} where ${incidentTypes.entityId} = ${e} and ${incidentTypes.archivedAt} is null`),
      maintenanceTypes: countOf(sql`${maintenanceTypes} where ${maintenanceTypes.entityId} = ${e} and ${maintenanceTypes.archivedAt} is null`),
      roomTypes: countOf(sql`${roomTypes} where ${roomTypes.entityId} = ${e} and ${roomTypes.archivedAt} is null`),
      rooms: countOf(sql`${rooms} where ${rooms.entityId} = ${e} and ${rooms.archivedAt} is null`),
    })
    .from(entities)
    .where(eq(entities.id, e));
  return row;
}

// ---------------------------------------------------------------------------
// The audit history
// ---------------------------------------------------------------------------

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilters {
  /** Rows of one person (their user id). */
  actorId?: number | null;
  /** Rows about one kind of record ("facility", "webhook", ...). */
  recordType?: string | null;
  /** From this instant (inclusive) / before this instant (exclusive). */
  from?: Date | null;
  to?: Date | null;
}

export interface AuditRowView {
  id: number;
  createdAt: Date;
  action: string;
  recordType: string;
  recordId: string;
  actorId: number | null;
  /** The person's name, or null for the system (a job, the seed) or a removed person. */
  actorName: string | null;
  requestId: string | null;
  details: Record<string, unknown> | null;
}

export interface AuditPage {
  rows: AuditRowView[];
  /** The id to ask for the next (older) page with, or null on the last one. */
  nextBefore: number | null;
}

/**
 * Kinds that earlier versions wrote under another name (imports filed equipment categories as
 * "category"): read as the one kind they are, so the history's filter offers each subject once.
 */
const FORMER_KINDS: Readonly<Record<string, string>> = { category: "equipmentCategory" };
const kindOf = (recordType: string) => FORMER_KINDS[recordType] ?? recordType;
const namesOfKind = (kind: string) => [kind, ...Object.keys(FORMER_KINDS).filter((former) => FORMER_KINDS[former] === kind)];

/**
 * The entity's audit rows newest first (/administration/audit), administrators only, a page at a time by
 * keyset on the id (`before`: the last id of the page before), filtered by person, kind of record and
 * period. Rows are written in id order, so newest first by id is newest first by time.
 */
export async function listAuditRows(ctx: ServiceContext, filters: AuditFilters = {}, options: { before?: number | null; size?: number } = {}): Promise<AuditPage> {
  assertCan(ctx.actor, "read", "audit");
  const size = options.size ?? AUDIT_PAGE_SIZE;
  const rows = await ctx.db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      action: auditLog.action,
      recordType: auditLog.recordType,
      recordId: auditLog.recordId,
      actorId: auditLog.actorId,
      actorName: sql<string | null>`nullif(trim(concat_ws(' ', ${users.name}, ${users.surname})), '')`,
      requestId: auditLog.requestId,
      details: auditLog.details,
    })
    .from(auditLog)
    .leftJoin(users, and(eq(users.id, auditLog.actorId), eq(users.entityId, auditLog.entityId)))
    .where(
      and(
        eq(auditLog.entityId, ctx.entityId),
        filters.actorId ? eq(auditLog.actorId, filters.actorId) : undefined,
        filters.recordType ? inArray(auditLog.recordType, namesOfKind(filters.recordType)) : undefined,
        filters.from ? gte(auditLog.createdAt, filters.from) : undefined,
        filters.to ? lt(auditLog.createdAt, filters.to) : undefined,
        options.before ? lt(auditLog.id, options.before) : undefined,
      ),
    )
    .orderBy(sql`${auditLog.id} desc`)
    .limit(size + 1);
  const page = rows.slice(0, size).map((row) => ({ ...row, action: currentAuditAction(row.action), recordType: kindOf(row.recordType) }));
  return { rows: page, nextBefore: rows.length > size ? page[page.length - 1].id : null };
}

/** What the audit filters offer: the entity's people who appear in it and the kinds of record, by name. */
export async function auditFilterOptions(ctx: ServiceContext): Promise<{ actors: { id: number; name: string }[]; recordTypes: string[] }> {
  assertCan(ctx.actor, "read", "audit");
  const [actors, kinds] = await Promise.all([
    ctx.db
      .select({ id: users.id, name: sql<string>`trim(concat_ws(' ', ${users.name}, ${users.surname}))` })
      .from(users)
      .where(and(eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
      .orderBy(users.surname, users.name, users.id),
    ctx.db
      .selectDistinct({ recordType: auditLog.recordType })
      .from(auditLog)
      .where(eq(auditLog.entityId, ctx.entityId))
      .orderBy(auditLog.recordType),
  ]);
  return { actors, recordTypes: [...new Set(kinds.map((k) => kindOf(k.recordType)))].sort() };
}
