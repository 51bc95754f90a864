import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { can } from "~/core/actor";
import { type ServiceContext, readAll } from "~/core/context.server";
import { entities, materialLines, timeEntries, users } from "~/db/schema";
import { assigneeCandidates, findIncidentInReach } from "~/modules/incidents/queries.server";
import { DEFAULT_CURRENCY } from "./constants";
import { assertRateKeeper, type WorkTarget } from "./service.server";

/** One time entry as the incident view shows it. */
export interface TimeEntryRow {
  id: number;
  person: { id: number; name: string };
  /** `YYYY-MM-DD`. */
  workedOn: string;
  minutes: number;
  /** The hourly rate captured when the entry was recorded ("45.00"); null: none, or hidden from the viewer. */
  hourlyRate: string | null;
  /** minutes / 60 × the rate, rounded to the cent ("67.50"); null without a rate, or hidden from the viewer. */
  cost: string | null;
  /** A colleague's entry seen by a technician: its rate and cost are not shown (seesEveryonesCost). */
  costHidden: boolean;
  note: string | null;
  /** Whether the viewer may correct or delete it (their own, or any for a manager). */
  editable: boolean;
}

/** One material line; amounts as exact decimal strings ("2.500", "12.50"). */
export interface MaterialLineRow {
  id: number;
  description: string;
  quantity: string;
  unitCost: string;
  /** quantity × unit cost, rounded to the cent. */
  total: string;
  addedBy: { id: number; name: string } | null;
  editable: boolean;
}

export interface IncidentWork {
  entries: TimeEntryRow[];
  lines: MaterialLineRow[];
  /**
   * Every entry and line counted: the time, the labour cost (the entries with a rate), the material and
   * their sum, as exact decimal strings; `unpricedEntries`: the entries without a rate (labour is partial).
   * `labour` and `total` are null for a viewer who does not see everyone's cost while other people's
   * time counts in them (they would tell a colleague's cost by subtraction).
   */
  totals: { minutes: number; labour: string | null; materials: string; total: string | null; unpricedEntries: number; entries: number; lines: number };
  /** The entity's currency (ISO 4217) of every amount. */
  currency: string;
  /** Whether the viewer may record time and material here. */
  canRecord: boolean;
  /** The people a manager may record time for (the incident's possible assignees); empty for others. */
  people: { id: number; name: string }[];
}

const personName = (name: string | null, surname: string | null) => `${name ?? ""} ${surname ?? ""}`.trim();

/** A material line's amount, rounded to the cent. */
const lineTotal = sql`round(${materialLines.quantity} * ${materialLines.unitCost}, 2)`;
/** A time entry's cost at its captured rate, rounded to the cent; null without a rate. */
const entryCost = sql`round(${timeEntries.minutes} * ${timeEntries.hourlyRate} / 60, 2)`;

/**
 * Whether the reader sees the rate and cost of everyone's time (decision 065): who may manage time
 * (managers and administrators, within their reach) and the system. Others (technicians) see those of
 * their own entries only; a record's labour total only while all its time is theirs.
 */
export function seesEveryonesCost(ctx: ServiceContext): boolean {
  return ctx.actor?.kind === "system" || can(ctx.actor, "manage", "time");
}

/** At most this many entries and lines are listed on the view (the totals count them all). */
export const WORK_ROWS_SHOWN = 200;

/**
 * The time entries and material lines of an incident in the viewer's reach ("Incident not found"
 * otherwise), oldest first, with their totals computed in SQL over every row.
 */
export async function getIncidentWork(ctx: ServiceContext, target: WorkTarget): Promise<IncidentWork> {
  const incident = await findIncidentInReach(ctx, target.incidentId);
  const viewerId = ctx.actor?.id ?? null;
  const manages = can(ctx.actor, "manage", "time");
  const seesAll = seesEveryonesCost(ctx);
  const canRecord = can(ctx.actor, "create", "time") && can(ctx.actor, "handle", "incident") && ctx.actor?.kind !== "system";
  const addedBy = alias(users, "added_by");
  // The incident's own entries and lines, within the entity.
  const incidentEntries = and(eq(timeEntries.incidentId, incident.id), eq(timeEntries.entityId, ctx.entityId));
  const incidentLines = and(eq(materialLines.incidentId, incident.id), eq(materialLines.entityId, ctx.entityId));
  const [entries, lines, totals, people] = await readAll(ctx, [
    () =>
      ctx.db
        .select({
          id: timeEntries.id,
          userId: timeEntries.userId,
          name: users.name,
          surname: users.surname,
          workedOn: timeEntries.workedOn,
          minutes: timeEntries.minutes,
          hourlyRate: timeEntries.hourlyRate,
          cost: sql<string | null>`${entryCost}::text`,
          note: timeEntries.note,
        })
        .from(timeEntries)
        .innerJoin(users, eq(users.id, timeEntries.userId))
        .where(incidentEntries)
        .orderBy(asc(timeEntries.workedOn), asc(timeEntries.id))
        .limit(WORK_ROWS_SHOWN),
    () =>
      ctx.db
        .select({
          id: materialLines.id,
          description: materialLines.description,
          quantity: materialLines.quantity,
          unitCost: materialLines.unitCost,
          total: sql<string>`${lineTotal}::text`,
          createdById: materialLines.createdById,
          name: addedBy.name,
          surname: addedBy.surname,
        })
        .from(materialLines)
        .leftJoin(addedBy, eq(addedBy.id, materialLines.createdById))
        .where(incidentLines)
        .orderBy(asc(materialLines.id))
        .limit(WORK_ROWS_SHOWN),
    () => workTotals(ctx, incident.id),
    async () =>
      manages
        ? // tenant-scope: scoped by assigneeCandidates, whose first condition is users.entity_id = ctx.entityId
          ctx.db
            .select({ id: users.id, name: users.name, surname: users.surname })
            .from(users)
            .where(assigneeCandidates(ctx, incident.roomId))
            .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))
            .limit(500)
        : [],
  ] as const);
  return {
    entries: entries.map((e) => {
      const costHidden = !seesAll && e.userId !== viewerId;
      return {
        id: e.id,
        person: { id: e.userId, name: personName(e.name, e.surname) },
        workedOn: e.workedOn,
        minutes: e.minutes,
        hourlyRate: costHidden ? null : e.hourlyRate,
        cost: costHidden ? null : e.cost,
        costHidden,
        note: e.note,
        editable: canRecord && (manages || e.userId === viewerId),
      };
    }),
    lines: lines.map((l) => ({
      id: l.id,
      description: l.description,
      quantity: l.quantity,
      unitCost: l.unitCost,
      total: l.total,
      addedBy: l.createdById ? { id: l.createdById, name: personName(l.name, l.surname) } : null,
      editable: canRecord && (manages || l.createdById === viewerId),
    })),
    totals: totals.totals,
    currency: totals.currency,
    canRecord,
    people: people.map((p) => ({ id: p.id, name: personName(p.name, p.surname) })),
  };
}

export type WorkTotals = Pick<IncidentWork, "totals" | "currency">;

/**
 * The totals of an incident's work, in one statement over every entry and line: the time, the labour
 * cost (each entry's minutes / 60 × its captured rate, rounded to the cent, entries without a rate left
 * out and counted), the material (each line rounded to the cent) and the entity's currency; labour and
 * total null for a viewer who sees only their own cost while others' time counts (seesEveryonesCost).
 * The caller has read the incident in the viewer's reach.
 */
export async function workTotals(ctx: ServiceContext, incidentId: number): Promise<WorkTotals> {
  const viewerId = ctx.actor?.id ?? null;
  // For a viewer who sees only their own cost: how many entries are someone else's.
  const othersTime = seesEveryonesCost(ctx) ? sql`0` : viewerId === null ? sql`count(*)` : sql`count(*) filter (where ${timeEntries.userId} <> ${viewerId})`;
  const time = ctx.db
    .select({
      others: sql<number>`(${othersTime})::int`.as("others"),
      minutes: sql<number>`coalesce(sum(${timeEntries.minutes}), 0)::int`.as("minutes"),
      labour: sql<string>`coalesce(sum(${entryCost}), 0)::numeric(14,2)`.as("labour"),
      unpriced: sql<number>`(count(*) filter (where ${timeEntries.hourlyRate} is null))::int`.as("unpriced"),
      entries: sql<number>`count(*)::int`.as("entries"),
    })
    .from(timeEntries)
    .where(and(eq(timeEntries.incidentId, incidentId), eq(timeEntries.entityId, ctx.entityId)))
    .as("time");
  const material = ctx.db
    .select({ amount: sql<string>`coalesce(sum(${lineTotal}), 0)::numeric(14,2)`.as("amount"), lines: sql<number>`count(*)::int`.as("lines") })
    .from(materialLines)
    .where(and(eq(materialLines.incidentId, incidentId), eq(materialLines.entityId, ctx.entityId)))
    .as("material");
  const [row] = await ctx.db
    .select({
      currency: entities.currency,
      minutes: time.minutes,
      labour: sql<string>`${time.labour}::text`,
      unpriced: time.unpriced,
      others: time.others,
      entries: time.entries,
      lines: material.lines,
      materials: sql<string>`${material.amount}::text`,
      total: sql<string>`(${time.labour} + ${material.amount})::numeric(14,2)::text`,
    })
    .from(entities)
    .crossJoin(time)
    .crossJoin(material)
    .where(eq(entities.id, ctx.entityId));
  const hidden = (row?.others ?? 0) > 0;
  return {
    totals: {
      minutes: row?.minutes ?? 0,
      labour: hidden ? null : (row?.labour ?? "0.00"),
      materials: row?.materials ?? "0.00",
      total: hidden ? null : (row?.total ?? "0.00"),
      unpricedEntries: row?.unpriced ?? 0,
      entries: row?.entries ?? 0,
      lines: row?.lines ?? 0,
    },
    currency: row?.currency ?? DEFAULT_CURRENCY,
  };
}

/** The entity's rates as the rates screen shows them. */
export interface HourlyRates {
  currency: string;
  /** The default hourly rate ("45.00"); null: none. */
  defaultRate: string | null;
  /** The entity's people (not archived), by surname, with their own rate (null: the default). */
  people: { id: number; name: string; email: string; rate: string | null }[];
}

/** The entity's currency, default rate and each person's rate (administrators only; `entityId`: the one the caller names). */
export async function getHourlyRates(ctx: ServiceContext, entityId: number = ctx.entityId): Promise<HourlyRates> {
  assertRateKeeper(ctx, "read", entityId);
  const [[entity], people] = await readAll(ctx, [
    () => ctx.db.select({ currency: entities.currency, defaultRate: entities.defaultHourlyRate }).from(entities).where(eq(entities.id, ctx.entityId)),
    () =>
      ctx.db
        .select({ id: users.id, name: users.name, surname: users.surname, email: users.email, rate: users.hourlyRate })
        .from(users)
        .where(and(eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
        .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.id))
        .limit(2000),
  ] as const);
  return {
    currency: entity?.currency ?? DEFAULT_CURRENCY,
    defaultRate: entity?.defaultRate ?? null,
    people: people.map((p) => ({ id: p.id, name: personName(p.name, p.surname), email: p.email, rate: p.rate })),
  };
}
