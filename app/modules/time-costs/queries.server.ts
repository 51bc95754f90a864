import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { assertCan, can } from "~/core/actor";
import { type ServiceContext, readAll } from "~/core/context.server";
import { entities, materialLines, timeEntries, users } from "~/db/schema";
import { assigneeCandidates, findIncidentInReach } from "~/modules/incidents/queries.server";
import { DEFAULT_CURRENCY } from "./constants";
import type { MaterialLineInput, TimeEntryInput } from "./schema";
import { materialLineNotFound, timeEntryNotFound, type WorkTarget } from "./service.server";

/** One time entry as the incident view shows it. */
export interface TimeEntryRow {
  id: number;
  person: { id: number; name: string };
  /** `YYYY-MM-DD`. */
  workedOn: string;
  minutes: number;
  /** The hourly rate captured when the entry was recorded ("45.00"); null: none. */
  hourlyRate: string | null;
  /** minutes / 60 × the rate, rounded to the cent ("67.50"); null without a rate. */
  cost: string | null;
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
   * their sum, as exact decimal strings, and how many entries and lines (beyond WORK_ROWS_SHOWN too); `unpricedEntries`: the entries without a rate (labour is partial).
   */
  totals: { minutes: number; labour: string; materials: string; total: string; unpricedEntries: number; entries: number; lines: number };
  /** The entity's currency (ISO 4217) of every amount. */
  currency: string;
  /** Whether the viewer may record time and material here. */
  canRecord: boolean;
  /** The people a manager may record time for (the incident's possible assignees); empty for others. */
  people: { id: number; name: string }[];
}

const personName = (name: string | null, surname: string | null) => `${name ?? ""} ${surname ?? ""}`.trim();

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
  const canRecord = can(ctx.actor, "create", "time") && can(ctx.actor, "handle", "incident") && ctx.actor?.kind !== "system";
  const addedBy = alias(users, "added_by");
  // The incident's own entries and lines, within the entity; a line's total is rounded to the cent.
  const incidentEntries = and(eq(timeEntries.incidentId, incident.id), eq(timeEntries.entityId, ctx.entityId));
  const incidentLines = and(eq(materialLines.incidentId, incident.id), eq(materialLines.entityId, ctx.entityId));
  const lineTotal = sql`round(${materialLines.quantity} * ${materialLines.unitCost}, 2)`;
  const entryCost = sql`round(${timeEntries.minutes} * ${timeEntries.hourlyRate} / 60, 2)`;
  const [entries, lines, [timeTotal], [materialTotal], people, [entity]] = await readAll(ctx, [
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
    () =>
      ctx.db
        .select({
          minutes: sql<number>`coalesce(sum(${timeEntries.minutes}), 0)::int`,
          labour: sql<string>`coalesce(sum(${entryCost}), 0)::numeric(14,2)::text`,
          unpriced: sql<number>`(count(*) filter (where ${timeEntries.hourlyRate} is null))::int`,
          count: sql<number>`count(*)::int`,
        })
        .from(timeEntries)
        .where(incidentEntries),
    () =>
      ctx.db
        .select({ amount: sql<string>`coalesce(sum(${lineTotal}), 0)::numeric(14,2)::text`, count: sql<number>`count(*)::int` })
        .from(materialLines)
        .where(incidentLines),
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
    () => ctx.db.select({ currency: entities.currency }).from(entities).where(eq(entities.id, ctx.entityId)),
  ] as const);
  const labour = timeTotal?.labour ?? "0.00";
  const materials = materialTotal?.amount ?? "0.00";
  return {
    entries: entries.map((e) => ({
      id: e.id,
      person: { id: e.userId, name: personName(e.name, e.surname) },
      workedOn: e.workedOn,
      minutes: e.minutes,
      hourlyRate: e.hourlyRate,
      cost: e.cost,
      note: e.note,
      editable: canRecord && (manages || e.userId === viewerId),
    })),
    lines: lines.map((l) => ({
      id: l.id,
      description: l.description,
      quantity: l.quantity,
      unitCost: l.unitCost,
      total: l.total,
      addedBy: l.createdById ? { id: l.createdById, name: personName(l.name, l.surname) } : null,
      editable: canRecord && (manages || l.createdById === viewerId),
    })),
    totals: { minutes: timeTotal?.minutes ?? 0, labour, materials, total: addCents(labour, materials), unpricedEntries: timeTotal?.unpriced ?? 0, entries: timeTotal?.count ?? 0, lines: materialTotal?.count ?? 0 },
    currency: entity?.currency ?? DEFAULT_CURRENCY,
    canRecord,
    people: people.map((p) => ({ id: p.id, name: personName(p.name, p.surname) })),
  };
}

/**
 * The stored values of a time entry of an incident in reach, as the verbs' input (the duration as hours
 * and minutes): what a partial change (PATCH) keeps for the fields it leaves out. "Incident not found"
 * or "Entry not found" otherwise; whether the actor may change it is the verb's question.
 */
export async function timeEntryValues(ctx: ServiceContext, target: WorkTarget, entryId: number): Promise<Required<Omit<TimeEntryInput, "note">> & { note: string | null }> {
  const incident = await findIncidentInReach(ctx, target.incidentId);
  const [entry] = await ctx.db
    .select({ userId: timeEntries.userId, workedOn: timeEntries.workedOn, minutes: timeEntries.minutes, note: timeEntries.note })
    .from(timeEntries)
    .where(and(eq(timeEntries.id, entryId), eq(timeEntries.incidentId, incident.id), eq(timeEntries.entityId, ctx.entityId)));
  if (!entry) throw timeEntryNotFound();
  return { userId: entry.userId, workedOn: entry.workedOn, hours: Math.floor(entry.minutes / 60), minutes: entry.minutes % 60, note: entry.note };
}

/** The stored values of a material line of an incident in reach, as the verbs' input (see timeEntryValues). */
export async function materialLineValues(ctx: ServiceContext, target: WorkTarget, lineId: number): Promise<Required<MaterialLineInput>> {
  const incident = await findIncidentInReach(ctx, target.incidentId);
  const [line] = await ctx.db
    .select({ description: materialLines.description, quantity: materialLines.quantity, unitCost: materialLines.unitCost })
    .from(materialLines)
    .where(and(eq(materialLines.id, lineId), eq(materialLines.incidentId, incident.id), eq(materialLines.entityId, ctx.entityId)));
  if (!line) throw materialLineNotFound();
  return line;
}

/** The sum of two amounts with two decimals ("12.50" + "3.05" = "15.55"), exactly, in cents. */
function addCents(a: string, b: string): string {
  const cents = (amount: string) => {
    const [whole, fraction = ""] = amount.split(".");
    return BigInt(whole) * 100n + BigInt((fraction + "00").slice(0, 2));
  };
  const total = cents(a) + cents(b);
  return `${total / 100n}.${String(total % 100n).padStart(2, "0")}`;
}

/** The entity's rates as the rates screen shows them. */
export interface HourlyRates {
  currency: string;
  /** The default hourly rate ("45.00"); null: none. */
  defaultRate: string | null;
  /** The entity's people (not archived), by surname, with their own rate (null: the default). */
  people: { id: number; name: string; email: string; rate: string | null }[];
}

/** The entity's currency, default rate and each person's rate (administrators only). */
export async function getHourlyRates(ctx: ServiceContext): Promise<HourlyRates> {
  assertCan(ctx.actor, "read", "rate");
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
