import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { checklistQuestion } from "~/modules/incident-types/queries.server";
import { alias } from "drizzle-orm/pg-core";
import type { ServiceContext } from "~/core/context.server";
import { roleMay } from "~/core/role-sql.server";
import { readAll } from "~/core/context.server";
import { type IncidentPriority, IncidentStatus } from "~/db/enums";
import { buildings, equipmentItems, equipmentTypes, facilities, incidentChecklistAnswers, incidentCommentFiles, incidentComments, incidentEvents, incidentFiles, incidentReporters, incidents, incidentStatusCounts, incidentTypeChecklistItems, incidentTypes, reportIdentifiers, rooms, storedFiles, users } from "~/db/schema";
import { decodeCursor, encodeCursor } from "~/lib/cursor.server";
import { endOfDay, startOfDay } from "~/lib/dates";
import { NotFoundError } from "~/lib/errors";
import { countUpToCap, rowsOf } from "~/lib/list-page.server";
import { likePattern, type ListQuery, type Page, pageWindow } from "~/lib/list-query";
import { incidentReach, isEntityWide, type ReachOutline, reachOutline, treeScope } from "~/modules/facilities/policy.server";
import { fileUrl } from "~/modules/files/uploads.server";
import { incidentTypeName } from "~/modules/incident-types/queries.server";
import { BOARD_PAGE_SIZE, BOARD_STATUSES, COMMENTS_PAGE, EVENTS_PAGE, type IncidentSort } from "./constants";
import { DUE_SOON_MINUTES, type IncidentFilters } from "./filters";
import { workingCalendar } from "~/modules/service-levels/queries.server";
import { addClockTime, hasOpeningHours } from "~/modules/service-levels/working-time";

/**
 * Reads of the incidents area, each applying the viewer's reach (`incidentReach`:
 * administrators their whole entity; managers and technicians the incidents in the rooms and on the
 * items of their linked facilities and buildings, and those assigned to them). Another entity's
 * incident, or one outside reach, is "Incident not found".
 *
 * The list pattern (decisions 017, 025): the table pages its ids first on an index per sort, then reads
 * the page's rows by primary key; totals come from the per-status counters when nothing but the status
 * narrows an entity-wide list, otherwise they are counted up to 1,000. The board's columns page by
 * keyset (creation time, id), so a column of 50,000 Done incidents costs what a short one does.
 */
export const incidentNotFound = () => new NotFoundError("incidents:errors.notFound", "INCIDENT_NOT_FOUND");
export const commentNotFound = () => new NotFoundError("incidents:errors.commentNotFound", "COMMENT_NOT_FOUND");

/** Statuses a list shows when no status is chosen: all but Archived. */
const LISTED_STATUSES = [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE, IncidentStatus.REJECTED];

/**
 * The conditions of the viewer's list: entity, not archived, reach, then the filters. `outline`: the
 * viewer's reach outline when read (`reachOutline`), so a wide reach is tested by its complement.
 */
export function incidentListWhere(ctx: ServiceContext, filters: IncidentFilters, outline?: ReachOutline | null): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(incidents.entityId, ctx.entityId),
    isNull(incidents.archivedAt),
    incidentReach(ctx, outline),
    filters.statuses.length ? inArray(incidents.status, filters.statuses as IncidentStatus[]) : inArray(incidents.status, LISTED_STATUSES),
  ];
  if (filters.priorities.length) {
    const values = filters.priorities.filter((p): p is number => p !== null);
    conditions.push(
      or(
        values.length ? sql`coalesce(${incidents.priority}, -1) in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})` : undefined,
        filters.priorities.includes(null) ? isNull(incidents.priority) : undefined,
      ),
    );
  }
  if (filters.assignee === "me") conditions.push(eq(incidents.assigneeId, ctx.actor?.id ?? -1));
  else if (filters.assignee === "none") conditions.push(isNull(incidents.assigneeId));
  else if (typeof filters.assignee === "number") conditions.push(eq(incidents.assigneeId, filters.assignee));
  if (filters.incidentTypeId) conditions.push(eq(incidents.incidentTypeId, filters.incidentTypeId));
  if (filters.roomId) conditions.push(eq(incidents.roomId, filters.roomId));
  else if (filters.buildingId) {
    conditions.push(sql`${incidents.roomId} in (select r.id from rooms r where r.entity_id = ${ctx.entityId} and r.building_id = ${filters.buildingId})`);
  } else if (filters.facilityId) {
    conditions.push(
      sql`${incidents.roomId} in (select r.id from rooms r join buildings b on b.id = r.building_id
        where r.entity_id = ${ctx.entityId} and b.facility_id = ${filters.facilityId})`,
    );
  }
  if (filters.tags.length) conditions.push(sql`${incidents.tags} @> ${`{${filters.tags.map((t) => `"${t.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`}::text[]`);
  // The filter's days are the entity's days (a day of 23 or 25 hours across a change of summer time).
  if (filters.from) conditions.push(gte(incidents.createdAt, startOfDay(filters.from, ctx.timeZone)));
  if (filters.to) conditions.push(lt(incidents.createdAt, endOfDay(filters.to, ctx.timeZone)));
  if (filters.q) conditions.push(or(...searchBranches(filters.q)));
  // A running clock past its due time: on the stored due column and its index (decision 064).
  if (filters.due === "breached") conditions.push(sql`${incidents.nextDueAt} <= now()`);
  else if (filters.due === "soon") {
    const until = filters.dueSoonUntil ?? new Date(Date.now() + DUE_SOON_MINUTES * 60_000);
    conditions.push(sql`${incidents.nextDueAt} > now()`, sql`${incidents.nextDueAt} <= ${until.toISOString()}::timestamptz`);
  }
  return and(...conditions)!;
}

/**
 * The filters with the "soon" window worked out: 4 working hours from now in the entity's calendar (4 hours
 * when it has no opening hours). Other filters come back as they are, without a read.
 */
export async function withDueWindow(ctx: ServiceContext, filters: IncidentFilters): Promise<IncidentFilters> {
  if (filters.due !== "soon" || filters.dueSoonUntil) return filters;
  const cal = await workingCalendar(ctx);
  const clock = hasOpeningHours(cal) ? "working" : "calendar";
  return { ...filters, dueSoonUntil: addClockTime(new Date(), DUE_SOON_MINUTES, clock, cal) };
}

/**
 * What a search matches, one alternative per index that can serve it alone: the short id (`#12` or
 * `12`), the title and the description (trigram indexes).
 */
function searchBranches(q: string): SQL[] {
  const number = /^#?(\d{1,9})$/.exec(q);
  const pattern = likePattern(q);
  return [
    ...(number ? [eq(incidents.shortId, Number(number[1]))] : []),
    sql`${incidents.title} ilike ${pattern}`,
    sql`${incidents.description} ilike ${pattern}`,
  ];
}

/** Whether only statuses narrow an entity-wide list: its total is then the status counters' sum. */
function countedByStatus(ctx: ServiceContext, filters: IncidentFilters): boolean {
  return (
    isEntityWide(ctx.actor) &&
    filters.priorities.length === 0 &&
    filters.assignee === null &&
    !filters.incidentTypeId &&
    !filters.facilityId &&
    !filters.buildingId &&
    !filters.roomId &&
    filters.tags.length === 0 &&
    !filters.from &&
    !filters.to &&
    !filters.q &&
    !filters.due
  );
}

/** The per-status totals of the entity (not archived), from the counters the trigger keeps. */
export async function incidentStatusTotals(ctx: ServiceContext): Promise<Record<number, number>> {
  const rows = await ctx.db
    .select({ status: incidentStatusCounts.status, count: incidentStatusCounts.count })
    .from(incidentStatusCounts)
    .where(eq(incidentStatusCounts.entityId, ctx.entityId));
  const totals: Record<number, number> = {};
  for (const r of rows) totals[r.status] = r.count;
  return totals;
}

async function countIncidents(ctx: ServiceContext, filters: IncidentFilters, where: SQL): Promise<{ total: number; capped: boolean }> {
  if (countedByStatus(ctx, filters)) {
    const totals = await incidentStatusTotals(ctx);
    const statuses = filters.statuses.length ? filters.statuses : LISTED_STATUSES;
    return { total: statuses.reduce((sum, s) => sum + (totals[s] ?? 0), 0), capped: false };
  }
  // tenant-scope: scoped by the callers' where: incidentListWhere, which compares incidents.entityId
  return countUpToCap(ctx.db, sql`from ${incidents} where ${where}`);
}

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

export interface IncidentLocation {
  roomId: number | null;
  roomName: string | null;
  floor: string | null;
  buildingId: number | null;
  buildingName: string | null;
  facilityId: number | null;
  facilityName: string | null;
  equipmentItemId: number | null;
  equipmentName: string | null;
  internalReference: string | null;
  /** The free-text location given when reported. */
  text: string | null;
}

export interface IncidentRow {
  id: number;
  shortId: number;
  title: string;
  priority: IncidentPriority;
  status: IncidentStatus;
  assignee: { id: number; name: string } | null;
  createdAt: string;
  occurrences: number;
  lastOccurrenceAt: string;
  tags: string[];
  incidentType: { id: number; name: string } | null;
  location: IncidentLocation;
  /** The earlier due time of its running service-level clocks (decision 064); null: none runs. */
  nextDueAt: string | null;
  /** Whether a service-level target was met late. */
  serviceLevelMissed: boolean;
}

/**
 * The sort of each field, ascending; `desc` reverses every key. Ties go by id. The assignee and due sorts
 * read by blocks (`idsByAssignee`, `idsByDue`).
 */
function sortKeys(sort: Exclude<IncidentSort, "assignee" | "due">): SQL[] {
  switch (sort) {
    case "createdAt":
      return [sql`${incidents.createdAt}`, sql`${incidents.id}`];
    case "title":
      return [sql`${incidents.title}`, sql`${incidents.id}`];
    case "priority":
      return [sql`coalesce(${incidents.priority}, -1)`, sql`${incidents.id}`];
    case "status":
      return [sql`${incidents.status}`, sql`${incidents.createdAt}`, sql`${incidents.id}`];
    case "occurrences":
      return [sql`${incidents.occurrences}`, sql`${incidents.id}`];
    case "shortId":
      return [sql`${incidents.shortId}`];
  }
}

const personName = (u: { name: string | null; surname: string | null }) => `${u.name ?? ""} ${u.surname ?? ""}`.trim();

/** Reads the rows of the given incident ids (already in reach), in the order given (the table's rows; the export's too). */
export async function incidentRows(ctx: ServiceContext, ids: number[]): Promise<IncidentRow[]> {
  if (ids.length === 0) return [];
  const assignee = alias(users, "assignee");
  const rows = await ctx.db
    .select({
      id: incidents.id,
      shortId: incidents.shortId,
      title: incidents.title,
      priority: incidents.priority,
      status: incidents.status,
      assigneeId: incidents.assigneeId,
      assigneeName: assignee.name,
      assigneeSurname: assignee.surname,
      createdAt: incidents.createdAt,
      occurrences: incidents.occurrences,
      lastOccurrenceAt: incidents.lastOccurrenceAt,
      tags: incidents.tags,
      incidentTypeId: incidents.incidentTypeId,
      incidentTypeName: incidentTypeName(ctx.locale),
      roomId: incidents.roomId,
      roomName: rooms.name,
      floor: sql<string | null>`coalesce(${incidents.floor}, ${rooms.floor})`,
      buildingId: buildings.id,
      buildingName: buildings.name,
      facilityId: facilities.id,
      facilityName: facilities.name,
      equipmentItemId: incidents.equipmentItemId,
      equipmentName: equipmentTypes.name,
      internalReference: equipmentItems.internalReference,
      locationText: incidents.location,
      nextDueAt: incidents.nextDueAt,
      responseMet: incidents.responseMet,
      resolutionMet: incidents.resolutionMet,
    })
    .from(incidents)
    .leftJoin(assignee, and(eq(assignee.id, incidents.assigneeId), eq(assignee.entityId, ctx.entityId)))
    .leftJoin(incidentTypes, and(eq(incidentTypes.id, incidents.incidentTypeId), eq(incidentTypes.entityId, ctx.entityId)))
    .leftJoin(rooms, and(eq(rooms.id, incidents.roomId), eq(rooms.entityId, ctx.entityId)))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .leftJoin(equipmentItems, and(eq(equipmentItems.id, incidents.equipmentItemId), eq(equipmentItems.entityId, ctx.entityId)))
    .leftJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
    // One array parameter, not one per id: an export reads 2,000 rows at a time, and a statement of
    // 2,000 parameters costs more to parse and plan than to run.
    .where(and(eq(incidents.entityId, ctx.entityId), sql`${incidents.id} = any(${`{${ids.map((id) => Math.trunc(id)).join(",")}}`}::int[])`));
  const byId = new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        shortId: r.shortId,
        title: r.title,
        priority: r.priority,
        status: r.status,
        assignee: r.assigneeId && r.assigneeName !== null ? { id: r.assigneeId, name: personName({ name: r.assigneeName, surname: r.assigneeSurname }) } : null,
        createdAt: r.createdAt.toISOString(),
        occurrences: r.occurrences,
        lastOccurrenceAt: r.lastOccurrenceAt.toISOString(),
        tags: r.tags ?? [],
        incidentType: r.incidentTypeId && r.incidentTypeName ? { id: r.incidentTypeId, name: r.incidentTypeName } : null,
        location: {
          roomId: r.roomId,
          roomName: r.roomName,
          floor: r.floor,
          buildingId: r.buildingId,
          buildingName: r.buildingName,
          facilityId: r.facilityId,
          facilityName: r.facilityName,
          equipmentItemId: r.equipmentItemId,
          equipmentName: r.equipmentName,
          internalReference: r.internalReference,
          text: r.locationText,
        },
        nextDueAt: r.nextDueAt?.toISOString() ?? null,
        serviceLevelMissed: r.responseMet === false || r.resolutionMet === false,
      } satisfies IncidentRow,
    ]),
  );
  return ids.map((id) => byId.get(id)).filter((r): r is IncidentRow => Boolean(r));
}

/**
 * One page of the incidents table. The page's ids come first, from the index of the sort (an OFFSET
 * skips index entries only); a page past the middle of a counted list is read from the other end, so
 * the last page costs what the first one does. Then the page's rows are read by id.
 */
export async function listIncidents(ctx: ServiceContext, query: ListQuery<IncidentSort>, asked: IncidentFilters): Promise<Page<IncidentRow>> {
  const filters = await withDueWindow(ctx, asked);
  const outline = await reachOutline(ctx);
  const where = incidentListWhere(ctx, filters, outline);
  const counted = await countIncidents(ctx, filters, where);
  const { limit } = pageWindow(query);
  const lastPage = Math.max(1, Math.ceil(counted.total / limit));
  const page = Math.min(query.page, lastPage);
  const offset = (page - 1) * limit;
  if (counted.total === 0) return { items: [], total: 0, page: 1, size: limit, capped: false };

  const keys = query.sort === "assignee" || query.sort === "due" ? [] : sortKeys(query.sort);
  // Past the middle: the same rows, read backwards from the end.
  const reversed = !counted.capped && offset > counted.total / 2;
  const forward = query.dir === "asc" ? !reversed : reversed;
  // PostgreSQL's default null order (asc nulls last, desc nulls first) is the order of the sort indexes
  // read forwards or backwards; naming another one makes every page sort the whole list (375 ms instead
  // of 0.1 ms on a million incidents). Unassigned incidents come last when sorting by assignee ascending.
  const order = keys.map((k) => (forward ? sql`${k} asc` : sql`${k} desc`));
  const take = reversed ? Math.min(limit, counted.total - offset) : limit;
  const skip = reversed ? Math.max(0, counted.total - offset - take) : offset;

  const ids =
    query.sort === "assignee"
      ? await idsByAssignee(ctx, where, forward, skip, take)
      : query.sort === "due"
        ? await idsByDue(ctx, where, forward, reversed, skip, take)
        : filters.q
        ? await idsOfSearch(ctx, filters, outline, keys, forward, skip, take)
        : (await ctx.db.select({ id: incidents.id }).from(incidents).where(where).orderBy(...order).offset(skip).limit(take)).map((r) => r.id);
  if (reversed) ids.reverse();
  const items = await incidentRows(ctx, ids);
  return { items, total: counted.total, page, size: limit, capped: counted.capped };
}

/**
 * A page of a search's ids in the sort's order: each alternative of the search (`searchBranches`) takes
 * its first `skip + take` rows on its own, and the page is cut from their union. With one condition
 * OR-ed over title and description, a common word sorted by title walks the title index and reads every
 * row's description from the table to test it; alone, the title's alternative is tested in the index
 * itself and the description's is served by its trigram index.
 */
async function idsOfSearch(
  ctx: ServiceContext,
  filters: IncidentFilters,
  outline: ReachOutline | null,
  keys: SQL[],
  forward: boolean,
  skip: number,
  take: number,
): Promise<number[]> {
  const base = incidentListWhere(ctx, { ...filters, q: "" }, outline);
  const dir = forward ? sql`asc` : sql`desc`;
  const keyColumns = sql.join(
    keys.map((k, i) => sql`${k} as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const innerOrder = sql.join(
    keys.map((k) => sql`${k} ${dir}`),
    sql`, `,
  );
  const outerOrder = sql.join(
    keys.map((_, i) => sql`${sql.raw(`k${i}`)} ${dir}`),
    sql`, `,
  );
  const branches = searchBranches(filters.q).map(
    (match) => sql`(select ${incidents.id} as id, ${keyColumns} from ${incidents} where ${and(base, match)} order by ${innerOrder} limit ${skip + take})`,
  );
  const result = await ctx.db.execute(sql`select u.id from (${sql.join(branches, sql` union `)}) u order by ${outerOrder} offset ${skip} limit ${take}`);
  return rowsOf<{ id: number | string }>(result).map((r) => Number(r.id));
}

/**
 * A page of ids sorted by assignee: the entity's users in the order of their names (surname, name, id),
 * each one's incidents by id, the unassigned ones last ascending (first descending). Read block by block
 * on the (entity, assignee, id) index, never by sorting every incident against the users (870 ms on a
 * million incidents): the first page is one statement of a few index reads per user; a later page
 * counts the blocks it skips, each up to what is left to skip.
 */
async function idsByAssignee(ctx: ServiceContext, where: SQL | undefined, forward: boolean, skip: number, take: number): Promise<number[]> {
  const dir = forward ? sql`asc` : sql`desc`;
  const inBlock = (assigneeId: number | null) => and(where, assigneeId === null ? isNull(incidents.assigneeId) : eq(incidents.assigneeId, assigneeId));
  if (skip === 0) {
    // tenant-scope: scoped by the callers' where: incidentListWhere, which compares incidents.entityId
    const result = await ctx.db.execute(sql`
      with u as (
        select ${users.id} as id,
               row_number() over (order by lower(${users.surname}) ${dir}, lower(${users.name}) ${dir}, ${users.id} ${dir}) as ord
        from ${users} where ${users.entityId} = ${ctx.entityId}
      )
      select x.id from (
        select u.ord, i.id from u cross join lateral (
          select ${incidents.id} as id from ${incidents} where ${and(where, sql`${incidents.assigneeId} = u.id`)} order by ${incidents.id} ${dir} limit ${take}
        ) i
        union all
        select null, n.id from (
          select ${incidents.id} as id from ${incidents} where ${inBlock(null)} order by ${incidents.id} ${dir} limit ${take}
        ) n
      ) x
      order by x.ord asc nulls ${forward ? sql`last` : sql`first`}, x.id ${dir}
      limit ${take}`);
    return rowsOf<{ id: number | string }>(result).map((r) => Number(r.id));
  }
  const people = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.entityId, ctx.entityId))
    .orderBy(...[sql`lower(${users.surname})`, sql`lower(${users.name})`, sql`${users.id}`].map((k) => (forward ? sql`${k} asc` : sql`${k} desc`)));
  const blocks: (number | null)[] = forward ? [...people.map((p) => p.id), null] : [null, ...people.map((p) => p.id)];
  const order = [forward ? asc(incidents.id) : desc(incidents.id)];
  return idsFromBlocks(ctx, blocks.map((block) => ({ where: inBlock(block), order })), skip, take);
}

type IdBlock = { where: SQL | undefined; order: SQL[] };

/**
 * Reads `take` ids after skipping `skip`, from `blocks` in turn (each one's rows in its `order`): a
 * block wholly skipped is only counted, up to what is left to skip, so that a later page does not read
 * the rows before it.
 */
async function idsFromBlocks(ctx: ServiceContext, blocks: IdBlock[], skip: number, take: number): Promise<number[]> {
  const ids: number[] = [];
  let left = skip;
  for (const block of blocks) {
    if (ids.length >= take) break;
    if (left > 0) {
      // tenant-scope: scoped by the callers' where: incidentListWhere, which compares incidents.entityId
      const counted = ctx.db.select({ one: sql`1` }).from(incidents).where(block.where).limit(left).as("counted");
      const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(counted);
      if (n < left) {
        left -= n;
        continue;
      }
    }
    // tenant-scope: scoped by the callers' where: incidentListWhere, which compares incidents.entityId
    const rows = await ctx.db
      .select({ id: incidents.id })
      .from(incidents)
      .where(block.where)
      .orderBy(...block.order)
      .offset(left)
      .limit(take - ids.length);
    left = 0;
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

/**
 * A page of ids sorted by due time (decision 064): first the incidents with a running clock by
 * `next_due_at` then id, on the partial index `(entity_id, next_due_at, id) where next_due_at is not null
 * and archived_at is null`; then those without one by id, last in both directions. `forward` is the
 * direction each block is read in; `reversed` (a page read from the end) takes the blocks in the other
 * order, so that the caller's reversal of the page gives the same rows as reading from the start. A later
 * page counts the rows of the block it skips, up to what is left to skip (as `idsByAssignee`).
 */
async function idsByDue(ctx: ServiceContext, where: SQL | undefined, forward: boolean, reversed: boolean, skip: number, take: number): Promise<number[]> {
  const by = (key: Parameters<typeof asc>[0]) => (forward ? asc(key) : desc(key));
  const blocks: IdBlock[] = [
    { where: and(where, isNotNull(incidents.nextDueAt)), order: [by(incidents.nextDueAt), by(incidents.id)] },
    { where: and(where, isNull(incidents.nextDueAt)), order: [by(incidents.id)] },
  ];
  if (reversed) blocks.reverse();
  return idsFromBlocks(ctx, blocks, skip, take);
}

// ---------------------------------------------------------------------------
// The board
// ---------------------------------------------------------------------------

export interface BoardColumn {
  status: number;
  items: IncidentRow[];
  total: number;
  capped: boolean;
  /** The cursor of the next cards; null at the end of the column. */
  next: string | null;
}

/** The cursor of a card: its creation time and id. */
function cardCursor(row: { createdAt: string; id: number }): string {
  return encodeCursor([row.createdAt, row.id]);
}

/** A column's conditions: the list's filters with this status, and after the cursor's card when given. */
function columnWhere(ctx: ServiceContext, status: number, filters: IncidentFilters, outline: ReachOutline | null, after: string | null | undefined) {
  const columnFilters = { ...filters, statuses: [status] };
  const where = incidentListWhere(ctx, columnFilters, outline);
  const cursor = decodeCursor(after);
  const cursorTime = cursor ? new Date(cursor[0]) : null;
  const past = cursor && cursorTime && !Number.isNaN(cursorTime.getTime()) ? sql`(${incidents.createdAt}, ${incidents.id}) < (${cursorTime.toISOString()}::timestamptz, ${cursor[1]})` : undefined;
  return { columnFilters, where, page: and(where, past)! };
}

/** A column of the cards shown; `more`: whether cards follow the last one (its cursor is then the next page's). */
function boardColumn(status: number, items: IncidentRow[], more: boolean, counted: { total: number; capped: boolean }): BoardColumn {
  const last = items[items.length - 1];
  return { status, items, total: counted.total, capped: counted.capped, next: more && last ? cardCursor(last) : null };
}

/**
 * One page of a kanban column (newest first), after `after` (a card's cursor) when given. Keyset
 * paging on (creation time, id): the status index serves every page alike.
 */
export async function listBoardColumn(
  ctx: ServiceContext,
  status: number,
  asked: IncidentFilters,
  options: { after?: string | null; size?: number } = {},
): Promise<BoardColumn> {
  const filters = await withDueWindow(ctx, asked);
  const size = Math.min(Math.max(1, options.size ?? BOARD_PAGE_SIZE), 100);
  const column = columnWhere(ctx, status, filters, await reachOutline(ctx), options.after);
  const [idRows, counted] = await readAll(ctx, [
    () =>
      // tenant-scope: scoped by columnWhere: incidentListWhere, which compares incidents.entityId
      ctx.db
        .select({ id: incidents.id })
        .from(incidents)
        .where(column.page)
        .orderBy(desc(incidents.createdAt), desc(incidents.id))
        .limit(size + 1),
    () => countIncidents(ctx, column.columnFilters, column.where),
  ] as const);
  // The extra id only tells that there is more: its row is not read.
  const items = await incidentRows(
    ctx,
    idRows.slice(0, size).map((r) => r.id),
  );
  return boardColumn(status, items, idRows.length > size, counted);
}

/**
 * The four columns of the board, each its first page (or the page after its cursor): every column's ids
 * in one statement (a branch per column, each on the status index), their rows in one read, and the
 * counts from the status counters when nothing but the status narrows an entity-wide board (else each
 * column is counted up to 1,000, the columns side by side).
 */
export async function listBoard(ctx: ServiceContext, asked: IncidentFilters, cursors: Partial<Record<number, string | null>> = {}): Promise<BoardColumn[]> {
  const filters = await withDueWindow(ctx, asked);
  const size = BOARD_PAGE_SIZE;
  const shown = BOARD_STATUSES.filter((s) => !filters.statuses.length || filters.statuses.includes(s));
  const outline = await reachOutline(ctx);
  const columns = new Map(shown.map((status) => [status, columnWhere(ctx, status, filters, outline, cursors[status])]));
  const branches = [...columns.values()].map(
    // tenant-scope: scoped by columnWhere: incidentListWhere, which compares incidents.entityId
    (c) => sql`(${ctx.db.select({ id: incidents.id, status: incidents.status }).from(incidents).where(c.page).orderBy(desc(incidents.createdAt), desc(incidents.id)).limit(size + 1)})`,
  );
  const byStatus = countedByStatus(ctx, { ...filters, statuses: [] });
  const [idRows, totals] = await readAll(ctx, [
    // tenant-scope: scoped by the branches above: each one selects incidents where columnWhere (entity included)
    async () => (branches.length ? rowsOf<{ id: number | string; status: number | string }>(await ctx.db.execute(sql.join(branches, sql` union all `))) : []),
    () => (byStatus ? incidentStatusTotals(ctx) : Promise.resolve(null)),
  ] as const);
  const counts = totals
    ? new Map(shown.map((s) => [s, { total: totals[s] ?? 0, capped: false }]))
    : new Map(await readAll(ctx, shown.map((s) => async () => [s, await countIncidents(ctx, columns.get(s)!.columnFilters, columns.get(s)!.where)] as const)));
  const ids = new Map<number, number[]>(shown.map((s) => [s, []]));
  for (const r of idRows) ids.get(Number(r.status))?.push(Number(r.id));
  const rows = new Map((await incidentRows(ctx, [...ids.values()].flatMap((list) => list.slice(0, size)))).map((r) => [r.id, r]));
  return BOARD_STATUSES.map((status) => {
    const list = ids.get(status);
    if (!list) return { status, items: [], total: 0, capped: false, next: null };
    const items = list.slice(0, size).flatMap((id) => rows.get(id) ?? []);
    return boardColumn(status, items, list.length > size, counts.get(status)!);
  });
}

// ---------------------------------------------------------------------------
// One incident
// ---------------------------------------------------------------------------

export interface IncidentFile {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  url: string;
  isImage: boolean;
}

export interface IncidentComment {
  id: number;
  body: string;
  author: { id: number; name: string };
  createdAt: string;
  editedAt: string | null;
  editedBy: string | null;
  files: IncidentFile[];
  /** Whether the viewer wrote it (and so may edit or delete it). */
  own: boolean;
}

export interface IncidentEventEntry {
  id: number;
  type: number;
  actor: string | null;
  oldValue: unknown;
  newValue: unknown;
  createdAt: string;
}

export interface ChecklistAnswer {
  position: number;
  question: string;
  contentType: number;
  answer: string | null;
  file: IncidentFile | null;
  /** When its report was made: the answers of one report share it. */
  reportedAt: string;
}

export interface IncidentDetail extends IncidentRow {
  description: string | null;
  updatedAt: string;
  doneAt: string | null;
  reporters: string[];
  files: IncidentFile[];
  checklist: ChecklistAnswer[];
  /** The incident this one duplicates (when marked), in reach or not. */
  duplicateOf: { id: number; shortId: number } | null;
  /** Incidents marked as duplicates of this one. */
  duplicates: { id: number; shortId: number; title: string }[];
  /** The report identifier of the room (or item), for the QR code of the work order. */
  reportCode: string | null;
  /** Whether the incident type lets reporters change the priority. */
  reporterMayChangePriority: boolean;
  /**
   * Service levels (decision 064): each target fixed for it (minutes; null: none), when it is due while
   * its clock runs (null: stopped, met or no target), when it was met and whether in time (null: not yet).
   */
  responseTargetMinutes: number | null;
  responseDueAt: string | null;
  respondedAt: string | null;
  responseMet: boolean | null;
  resolutionTargetMinutes: number | null;
  resolutionDueAt: string | null;
  resolvedAt: string | null;
  resolutionMet: boolean | null;
  /** Its equipment out of service (decision 066), and the downtime set by hand in minutes (null: report to Done). */
  equipmentDown: boolean;
  downtimeMinutes: number | null;
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

function fileOf(f: { id: string; originalName: string; mimeType: string; sizeBytes: number }): IncidentFile {
  return { id: f.id, name: f.originalName, mimeType: f.mimeType, size: f.sizeBytes, url: fileUrl(f.id)!, isImage: IMAGE_TYPES.has(f.mimeType) };
}

/**
 * The incident with this id, if the viewer reaches it; `lock` takes its row lock (verbs). Throws
 * "Incident not found" otherwise, whatever the reason (another entity, outside reach, archived).
 */
export async function findIncidentInReach(ctx: ServiceContext, id: number, options: { lock?: boolean } = {}) {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw incidentNotFound();
  const query = ctx.db
    .select()
    .from(incidents)
    .where(and(eq(incidents.id, id), eq(incidents.entityId, ctx.entityId), isNull(incidents.archivedAt), incidentReach(ctx)));
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw incidentNotFound();
  return row;
}

/** The incident with this short id ("#12") in reach, or "Incident not found". */
export async function findIncidentByShortId(ctx: ServiceContext, shortId: number) {
  if (!Number.isSafeInteger(shortId) || shortId <= 0 || shortId > 2_147_483_647) throw incidentNotFound();
  const [row] = await ctx.db
    .select({ id: incidents.id })
    .from(incidents)
    .where(and(eq(incidents.shortId, shortId), eq(incidents.entityId, ctx.entityId), isNull(incidents.archivedAt), incidentReach(ctx)));
  if (!row) throw incidentNotFound();
  return row;
}

/** The incident view's details: everything but comments and events. */
export async function getIncident(ctx: ServiceContext, id: number): Promise<IncidentDetail> {
  return detailOf(ctx, await findIncidentInReach(ctx, id));
}

/**
 * The incident view's page: the details, the latest comments and the latest events, read side by side
 * after one reach check (each read alone checks it again: getIncident, listIncidentComments,
 * listIncidentEvents, as the REST calls use them).
 */
export async function getIncidentView(
  ctx: ServiceContext,
  id: number,
  options: { comments?: number; events?: number } = {},
): Promise<{ incident: IncidentDetail; comments: { items: IncidentComment[]; total: number }; events: { items: IncidentEventEntry[]; total: number } }> {
  const found = await findIncidentInReach(ctx, id);
  const [incident, comments, events] = await readAll(ctx, [
    () => detailOf(ctx, found),
    () => commentsOf(ctx, found, { limit: options.comments }),
    () => eventsOf(ctx, found, { limit: options.events }),
  ] as const);
  return { incident, comments, events };
}

/** An incident's row as `findIncidentInReach` answers it: the reads below take it once reach is checked. */
type IncidentInReach = Awaited<ReturnType<typeof findIncidentInReach>>;

async function detailOf(ctx: ServiceContext, incident: IncidentInReach): Promise<IncidentDetail> {
  const [[row], reporters, files, checklist, duplicateOf, duplicates, code, type] = await readAll(ctx, [
    () => incidentRows(ctx, [incident.id]),
    () =>
      ctx.db
        .select({ email: incidentReporters.email })
        .from(incidentReporters)
        .where(and(eq(incidentReporters.incidentId, incident.id), eq(incidentReporters.entityId, ctx.entityId)))
        .orderBy(asc(incidentReporters.createdAt), asc(incidentReporters.id)),
    () =>
      ctx.db
        .select({ id: storedFiles.id, originalName: storedFiles.originalName, mimeType: storedFiles.mimeType, sizeBytes: storedFiles.sizeBytes })
        .from(incidentFiles)
        .innerJoin(storedFiles, eq(storedFiles.id, incidentFiles.fileId))
        .where(and(eq(incidentFiles.incidentId, incident.id), eq(incidentFiles.entityId, ctx.entityId), isNull(storedFiles.deletedAt)))
        .orderBy(asc(incidentFiles.createdAt), asc(storedFiles.id)),
    () =>
      ctx.db
        .select({
          position: incidentChecklistAnswers.position,
          question: incidentChecklistAnswers.question,
          contentType: incidentChecklistAnswers.contentType,
          answer: incidentChecklistAnswers.answer,
          reportedAt: incidentChecklistAnswers.createdAt,
          fileId: storedFiles.id,
          originalName: storedFiles.originalName,
          mimeType: storedFiles.mimeType,
          sizeBytes: storedFiles.sizeBytes,
        })
        .from(incidentChecklistAnswers)
        .leftJoin(storedFiles, and(eq(storedFiles.id, incidentChecklistAnswers.fileId), isNull(storedFiles.deletedAt)))
        .where(and(eq(incidentChecklistAnswers.incidentId, incident.id), eq(incidentChecklistAnswers.entityId, ctx.entityId)))
        .orderBy(asc(incidentChecklistAnswers.createdAt), asc(incidentChecklistAnswers.position), asc(incidentChecklistAnswers.id)),
    async () => {
      if (!incident.duplicateOfId) return null;
      const [kept] = await ctx.db
        .select({ id: incidents.id, shortId: incidents.shortId })
        .from(incidents)
        .where(and(eq(incidents.id, incident.duplicateOfId), eq(incidents.entityId, ctx.entityId)));
      return kept ?? null;
    },
    () =>
      ctx.db
        .select({ id: incidents.id, shortId: incidents.shortId, title: incidents.title })
        .from(incidents)
        .where(and(eq(incidents.duplicateOfId, incident.id), eq(incidents.entityId, ctx.entityId)))
        .orderBy(asc(incidents.shortId))
        .limit(100),
    async () => {
      const target = incident.equipmentItemId
        ? eq(reportIdentifiers.equipmentItemId, incident.equipmentItemId)
        : incident.roomId
          ? eq(reportIdentifiers.roomId, incident.roomId)
          : undefined;
      if (!target) return null;
      const [r] = await ctx.db
        .select({ code: reportIdentifiers.code })
        .from(reportIdentifiers)
        .where(and(target, eq(reportIdentifiers.entityId, ctx.entityId), isNull(reportIdentifiers.archivedAt)));
      return r?.code ?? null;
    },
    async () => {
      if (!incident.incidentTypeId) return null;
      const [t] = await ctx.db
        .select({ allow: incidentTypes.reporterMayChangePriority })
        .from(incidentTypes)
        .where(and(eq(incidentTypes.id, incident.incidentTypeId), eq(incidentTypes.entityId, ctx.entityId)));
      return t ?? null;
    },
  ] as const);
  return {
    ...row!,
    description: incident.description,
    updatedAt: incident.updatedAt.toISOString(),
    doneAt: incident.doneAt?.toISOString() ?? null,
    reporters: reporters.map((r) => r.email),
    files: files.map(fileOf),
    checklist: checklist.map((c) => ({
      position: c.position,
      question: c.question,
      contentType: c.contentType,
      answer: c.answer,
      file: c.fileId ? fileOf({ id: c.fileId, originalName: c.originalName!, mimeType: c.mimeType!, sizeBytes: c.sizeBytes! }) : null,
      reportedAt: new Date(c.reportedAt).toISOString(),
    })),
    duplicateOf,
    duplicates,
    reportCode: code,
    reporterMayChangePriority: Boolean(type?.allow),
    responseTargetMinutes: incident.responseTargetMinutes,
    responseDueAt: incident.responseDueAt?.toISOString() ?? null,
    respondedAt: incident.respondedAt?.toISOString() ?? null,
    responseMet: incident.responseMet,
    resolutionTargetMinutes: incident.resolutionTargetMinutes,
    resolutionDueAt: incident.resolutionDueAt?.toISOString() ?? null,
    resolvedAt: incident.resolvedAt?.toISOString() ?? null,
    resolutionMet: incident.resolutionMet,
    equipmentDown: incident.equipmentDown,
    downtimeMinutes: incident.downtimeMinutes,
  };
}

/** The checklist of the incident's type (the questions, for the work order's boxes to tick). */
export async function incidentTypeChecklist(ctx: ServiceContext, incidentTypeId: number | null): Promise<{ question: string; contentType: number }[]> {
  if (!incidentTypeId) return [];
  return ctx.db
    .select({ question: checklistQuestion(ctx.locale), contentType: incidentTypeChecklistItems.contentType })
    .from(incidentTypeChecklistItems)
    .where(and(eq(incidentTypeChecklistItems.incidentTypeId, incidentTypeId), eq(incidentTypeChecklistItems.entityId, ctx.entityId)))
    .orderBy(asc(incidentTypeChecklistItems.position), asc(incidentTypeChecklistItems.id));
}

/**
 * The comments of an incident in reach, oldest first, a page at a time (`before`: the id of the
 * oldest shown; the newest page comes first). Deleted comments are left out.
 */
export async function listIncidentComments(
  ctx: ServiceContext,
  incidentId: number,
  options: { limit?: number; newestFirst?: boolean } = {},
): Promise<{ items: IncidentComment[]; total: number }> {
  return commentsOf(ctx, await findIncidentInReach(ctx, incidentId), options);
}

async function commentsOf(
  ctx: ServiceContext,
  incident: IncidentInReach,
  options: { limit?: number; newestFirst?: boolean },
): Promise<{ items: IncidentComment[]; total: number }> {
  const limit = Math.min(Math.max(1, options.limit ?? COMMENTS_PAGE), 500);
  const author = alias(users, "author");
  const editor = alias(users, "editor");
  const where = and(eq(incidentComments.incidentId, incident.id), eq(incidentComments.entityId, ctx.entityId), isNull(incidentComments.deletedAt));
  const [rows, [{ n }]] = await readAll(ctx, [
    () =>
      ctx.db
        .select({
          id: incidentComments.id,
          body: incidentComments.body,
          authorId: incidentComments.authorId,
          authorName: author.name,
          authorSurname: author.surname,
          createdAt: incidentComments.createdAt,
          editedAt: incidentComments.editedAt,
          editorName: editor.name,
          editorSurname: editor.surname,
        })
        .from(incidentComments)
        .leftJoin(author, eq(author.id, incidentComments.authorId))
        .leftJoin(editor, eq(editor.id, incidentComments.editedById))
        .where(where)
        .orderBy(desc(incidentComments.createdAt), desc(incidentComments.id))
        .limit(limit),
    () => ctx.db.select({ n: sql<number>`count(*)::int` }).from(incidentComments).where(where),
  ] as const);
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await ctx.db
        .select({
          commentId: incidentCommentFiles.commentId,
          id: storedFiles.id,
          originalName: storedFiles.originalName,
          mimeType: storedFiles.mimeType,
          sizeBytes: storedFiles.sizeBytes,
        })
        .from(incidentCommentFiles)
        .innerJoin(storedFiles, eq(storedFiles.id, incidentCommentFiles.fileId))
        .where(and(inArray(incidentCommentFiles.commentId, ids), eq(incidentCommentFiles.entityId, ctx.entityId), isNull(storedFiles.deletedAt)))
        .orderBy(asc(incidentCommentFiles.createdAt))
    : [];
  const items = rows.map((r) => ({
    id: r.id,
    body: r.body,
    author: { id: r.authorId, name: personName({ name: r.authorName, surname: r.authorSurname }) },
    createdAt: r.createdAt.toISOString(),
    editedAt: r.editedAt?.toISOString() ?? null,
    editedBy: r.editedAt ? personName({ name: r.editorName, surname: r.editorSurname }) || null : null,
    files: files.filter((f) => f.commentId === r.id).map(fileOf),
    own: r.authorId === ctx.actor?.id,
  }));
  if (!options.newestFirst) items.reverse();
  return { items, total: n };
}

/** The events of an incident in reach, newest first (at most `limit`). */
export async function listIncidentEvents(
  ctx: ServiceContext,
  incidentId: number,
  options: { limit?: number } = {},
): Promise<{ items: IncidentEventEntry[]; total: number }> {
  return eventsOf(ctx, await findIncidentInReach(ctx, incidentId), options);
}

async function eventsOf(ctx: ServiceContext, incident: IncidentInReach, options: { limit?: number }): Promise<{ items: IncidentEventEntry[]; total: number }> {
  const limit = Math.min(Math.max(1, options.limit ?? EVENTS_PAGE), 1000);
  const actor = alias(users, "actor");
  const where = and(eq(incidentEvents.incidentId, incident.id), eq(incidentEvents.entityId, ctx.entityId));
  const [rows, [{ n }]] = await readAll(ctx, [
    () =>
      ctx.db
        .select({
          id: incidentEvents.id,
          type: incidentEvents.type,
          actorName: actor.name,
          actorSurname: actor.surname,
          oldValue: incidentEvents.oldValue,
          newValue: incidentEvents.newValue,
          createdAt: incidentEvents.createdAt,
        })
        .from(incidentEvents)
        .leftJoin(actor, eq(actor.id, incidentEvents.actorId))
        .where(where)
        .orderBy(desc(incidentEvents.createdAt), desc(incidentEvents.id))
        .limit(limit),
    () => ctx.db.select({ n: sql<number>`count(*)::int` }).from(incidentEvents).where(where),
  ] as const);
  return {
    items: rows.map((r) => ({
      id: r.id,
      type: r.type,
      actor: r.actorName !== null ? personName({ name: r.actorName, surname: r.actorSurname }) : null,
      oldValue: r.oldValue ?? null,
      newValue: r.newValue ?? null,
      createdAt: r.createdAt.toISOString(),
    })),
    total: n,
  };
}

/**
 * The users an incident may be assigned to: active users of the entity whose role may handle incidents
 * and who reach its location (the roles that reach the whole entity, others when linked to its facility
 * or building), searchable and paged. An incident without a room: the roles that reach the whole entity.
 */
export async function listIncidentAssignees(
  ctx: ServiceContext,
  incidentId: number,
  options: { q?: string; page?: number; size?: number } = {},
): Promise<Page<{ id: number; name: string; role: number }>> {
  const incident = await findIncidentInReach(ctx, incidentId);
  const size = Math.min(Math.max(1, options.size ?? 20), 100);
  const page = Math.max(1, Math.min(options.page ?? 1, 100_000));
  const where = assigneeCandidates(ctx, incident.roomId, options.q ?? "");
  const [rows, [{ n }]] = await readAll(ctx, [
    () =>
      ctx.db
        .select({ id: users.id, name: users.name, surname: users.surname, role: users.role })
        .from(users)
        .where(where)
        .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))
        .offset((page - 1) * size)
        .limit(size),
    () => ctx.db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ] as const);
  return { items: rows.map((r) => ({ id: r.id, name: personName(r), role: r.role })), total: n, page, size };
}

/**
 * A condition on `users`: the user reaches the room of every Pending and In Progress incident assigned to
 * `userId` (who may take them over when that person leaves: the roles that reach the whole entity always,
 * others when linked to each one's facility or building).
 */
export function reachesOpenIncidentsOf(ctx: ServiceContext, userId: number): SQL {
  return sql`(${roleMay(users.role, "reach", "wholeEntity")} or not exists (
    select 1 from incidents i
    where i.entity_id = ${ctx.entityId} and i.assignee_id = ${userId} and i.status in (0, 1) and i.archived_at is null
      and not exists (
        select 1 from user_linked_objects l join rooms r on r.id = i.room_id and r.entity_id = ${ctx.entityId}
        join buildings b on b.id = r.building_id
        where l.user_id = ${users.id} and l.entity_id = ${ctx.entityId} and (l.facility_id = b.facility_id or l.building_id = b.id))))`;
}

/**
 * Active users of the entity whose role may handle incidents (the permission table) and who reach the room
 * (`null`: no room, the roles that reach the whole entity only).
 */
export function assigneeCandidates(ctx: ServiceContext, roomId: number | null, q = ""): SQL {
  const wholeEntity = roleMay(users.role, "reach", "wholeEntity");
  const reach = roomId
    ? sql`(${wholeEntity} or exists (
        select 1 from user_linked_objects l
        join rooms r on r.id = ${roomId} and r.entity_id = ${ctx.entityId}
        join buildings b on b.id = r.building_id
        where l.user_id = ${users.id} and l.entity_id = ${ctx.entityId}
          and (l.facility_id = b.facility_id or l.building_id = b.id)))`
    : wholeEntity;
  const pattern = q ? likePattern(q) : null;
  return and(
    eq(users.entityId, ctx.entityId),
    isNull(users.archivedAt),
    sql`${users.status} <> 3`,
    roleMay(users.role, "handle", "incident"),
    reach,
    pattern ? or(sql`${users.name} ilike ${pattern}`, sql`${users.surname} ilike ${pattern}`, sql`(${users.name} || ' ' || ${users.surname}) ilike ${pattern}`) : undefined,
  )!;
}

/** The tags used by the entity's open incidents (the tag filter's suggestions), most used first. */
export async function listIncidentTags(ctx: ServiceContext, limit = 50): Promise<string[]> {
  const result = await ctx.db.execute(sql`
    select t.tag from (
      select unnest(${incidents.tags}) as tag from ${incidents}
      where ${incidents.entityId} = ${ctx.entityId} and ${incidents.archivedAt} is null
        and ${incidents.status} in (0, 1) and cardinality(${incidents.tags}) > 0
      limit 20000
    ) t group by t.tag order by count(*) desc, t.tag limit ${limit}`);
  return rowsOf<{ tag: string }>(result).map((r) => r.tag);
}

/** For the filters: what of the tree the viewer reaches (facility options). */
export async function listFilterFacilities(ctx: ServiceContext): Promise<{ id: number; name: string }[]> {
  return ctx.db
    .select({ id: facilities.id, name: facilities.name })
    .from(facilities)
    .where(and(eq(facilities.entityId, ctx.entityId), isNull(facilities.archivedAt), treeScope(ctx, "facility")))
    .orderBy(asc(sql`lower(${facilities.name})`), asc(facilities.id))
    .limit(500);
}

