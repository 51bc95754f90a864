import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { IncidentEventType } from "~/db/enums";
import { buildings, entities, facilities, incidentEvents, incidentReporters, incidents, rooms } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { hashStatusToken } from "./status-token.server";

/**
 * The reporter's status page (/report/status/{token}): what they reported, where, its
 * status and its public history (created, status changes, folded reports), never staff comments,
 * names, or other reporters' emails. The token is the only key; anything else is "not found".
 */
export const reportStatusNotFound = () => new NotFoundError("report:status.notFound", "REPORT_STATUS_NOT_FOUND");

export interface ReportStatus {
  shortId: number;
  title: string;
  status: number;
  createdAt: string;
  lastOccurrenceAt: string;
  place: { facility: string; building: string; room: string; floor: string | null };
  /** The entity's branding, and its time zone (the page's dates are written in it). */
  entity: { name: string; color: string; textColor: string; timeZone: string };
  history: { type: number; at: string; status?: number }[];
}

const PUBLIC_EVENTS = [IncidentEventType.CREATED, IncidentEventType.STATUS_UPDATE, IncidentEventType.REPORTED_AGAIN];

export async function getReportStatus(db: Db, token: string): Promise<ReportStatus> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) throw reportStatusNotFound();
  // tenant-scope: across entities, a reporter's status link is found by its token hash; the row gives the entity
  const [row] = await db
    .select({
      id: incidents.id,
      entityId: incidents.entityId,
      shortId: incidents.shortId,
      title: incidents.title,
      status: incidents.status,
      createdAt: incidents.createdAt,
      lastOccurrenceAt: incidents.lastOccurrenceAt,
      floor: incidents.floor,
      room: rooms.name,
      building: buildings.name,
      facility: facilities.name,
      entityName: entities.name,
      color: entities.templateColor,
      textColor: entities.templateTextColor,
      timeZone: entities.timeZone,
    })
    .from(incidentReporters)
    .innerJoin(incidents, and(eq(incidents.id, incidentReporters.incidentId), eq(incidents.entityId, incidentReporters.entityId)))
    .innerJoin(entities, eq(entities.id, incidents.entityId))
    .leftJoin(rooms, eq(rooms.id, incidents.roomId))
    .leftJoin(buildings, eq(buildings.id, rooms.buildingId))
    .leftJoin(facilities, eq(facilities.id, buildings.facilityId))
    .where(and(eq(incidentReporters.statusTokenHash, hashStatusToken(token)), isNull(incidents.archivedAt)));
  if (!row) throw reportStatusNotFound();
  const events = await db
    .select({ type: incidentEvents.type, at: incidentEvents.createdAt, newValue: incidentEvents.newValue })
    .from(incidentEvents)
    .where(and(eq(incidentEvents.incidentId, row.id), eq(incidentEvents.entityId, row.entityId), inArray(incidentEvents.type, PUBLIC_EVENTS)))
    .orderBy(asc(incidentEvents.createdAt), asc(incidentEvents.id))
    .limit(200);
  return {
    shortId: row.shortId,
    title: row.title,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    lastOccurrenceAt: row.lastOccurrenceAt.toISOString(),
    place: { facility: row.facility ?? "", building: row.building ?? "", room: row.room ?? "", floor: row.floor },
    entity: { name: row.entityName, color: row.color, textColor: row.textColor, timeZone: row.timeZone },
    history: events.map((e) => ({
      type: e.type,
      at: e.at.toISOString(),
      ...(e.type === IncidentEventType.STATUS_UPDATE && typeof e.newValue === "number" ? { status: e.newValue } : {}),
    })),
  };
}
