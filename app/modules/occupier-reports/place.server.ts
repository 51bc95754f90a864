import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { checklistQuestion } from "~/modules/incident-types/queries.server";
import { can } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { keptAnswers } from "~/core/kept-answers.server";
import type { Db } from "~/db/client.server";
import { buildings, entities, equipmentItems, equipmentTypes, facilities, incidentTypeChecklistItems, reportIdentifiers, roomLinks, rooms } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { listReportableIncidentTypes, type ReportableIncidentType } from "~/modules/incident-types/queries.server";
import { treeScope } from "~/modules/facilities/policy.server";

/**
 * What the public report page (/report/{identifier}) shows: the entity's branding and
 * greeting, where the sticker is, the room's links, and the incident types that apply there with their
 * checklists. Read without an account: the identifier (a random code printed on the sticker) is the
 * only key, and an unknown or archived one is simply "not found", saying nothing of any entity.
 */
export const reportPlaceNotFound = () => new NotFoundError("report:notFound.title", "REPORT_IDENTIFIER_NOT_FOUND");

const CODE = /^[A-Za-z0-9_-]{4,32}$/;

export interface ReportPlace {
  code: string;
  entity: { id: number; name: string; logoUrl: string | null; logoFileId: string | null; color: string; textColor: string; greeting: string | null };
  facilityName: string;
  buildingName: string;
  roomId: number;
  roomName: string;
  floor: string;
  equipmentItem: { id: number; name: string; internalReference: string | null } | null;
  links: { type: number; url: string }[];
  incidentTypes: (ReportableIncidentType & { checklist: { position: number; question: string; tutorialLink: string | null; message: string | null; contentType: number }[] })[];
}

/** The room or item a report identifier names (active, of an active room), or null. */
export async function resolveReportIdentifier(db: Db, code: string) {
  if (!CODE.test(code)) return null;
  // One read (every report runs it): the identifier, its equipment item when it has one, and the room,
  // each neither archived nor of another entity.
  // tenant-scope: across entities, a public report code is unique over all entities and names its entity
  const [row] = await db
    .select({ entityId: reportIdentifiers.entityId, roomId: rooms.id, equipmentItemId: reportIdentifiers.equipmentItemId, timeZone: entities.timeZone })
    .from(reportIdentifiers)
    .innerJoin(entities, eq(entities.id, reportIdentifiers.entityId))
    .leftJoin(equipmentItems, and(eq(equipmentItems.id, reportIdentifiers.equipmentItemId), isNull(equipmentItems.archivedAt)))
    .innerJoin(
      rooms,
      and(
        eq(rooms.id, sql`coalesce(${reportIdentifiers.roomId}, ${equipmentItems.roomId})`),
        eq(rooms.entityId, reportIdentifiers.entityId),
        isNull(rooms.archivedAt),
      ),
    )
    .where(and(eq(reportIdentifiers.code, code), isNull(reportIdentifiers.archivedAt)));
  return row ? { ...row, code } : null;
}
export type ResolvedIdentifier = NonNullable<Awaited<ReturnType<typeof resolveReportIdentifier>>>;

const resolvedCodes = keptAnswers<ResolvedIdentifier | null>({ maxEntries: 2_000, ttlMs: 60_000 });

/**
 * `resolveReportIdentifier`, kept until its entity commits a write (decision 019): every scan and report of
 * a crowd at one sticker reads the same answer, and only a write of that entity (a room archived, an item
 * moved) can change it. An unknown code is read every time (a new sticker must answer at once).
 */
export function resolveReportIdentifierKept(db: Db, code: string): Promise<ResolvedIdentifier | null> {
  if (!CODE.test(code)) return Promise.resolve(null);
  return resolvedCodes.get(db, code, () => resolveReportIdentifier(db, code), (resolved) => resolved?.entityId ?? null);
}

function greetingFor(locale: string, e: { greetingEn: string | null; greetingFr: string | null; greetingNl: string | null }): string | null {
  const order = locale.startsWith("fr") ? [e.greetingFr, e.greetingEn, e.greetingNl] : locale.startsWith("nl") ? [e.greetingNl, e.greetingEn, e.greetingFr] : [e.greetingEn, e.greetingFr, e.greetingNl];
  return order.find((g) => g && g.trim()) ?? null;
}

/**
 * The report page of `code` in `locale`, read with `services` (the database and what a context needs)
 * for the identifier's own entity; "not found" for anything unknown, archived or malformed.
 */
export async function getReportPlace(services: Pick<ServiceContext, "db">, code: string, locale: string): Promise<ReportPlace> {
  const resolved = await resolveReportIdentifier(services.db, code);
  if (!resolved) throw reportPlaceNotFound();
  const ctx: ServiceContext = { db: services.db, entityId: resolved.entityId, actor: null, locale, timeZone: resolved.timeZone };
  const [[place], links, types] = await Promise.all([
    services.db
      .select({
        entityName: entities.name,
        logoFileId: entities.logoFileId,
        color: entities.templateColor,
        textColor: entities.templateTextColor,
        greetingEn: entities.greetingEn,
        greetingFr: entities.greetingFr,
        greetingNl: entities.greetingNl,
        facilityName: facilities.name,
        buildingName: buildings.name,
        roomName: rooms.name,
        floor: rooms.floor,
      })
      .from(rooms)
      .innerJoin(buildings, eq(buildings.id, rooms.buildingId))
      .innerJoin(facilities, eq(facilities.id, buildings.facilityId))
      .innerJoin(entities, eq(entities.id, rooms.entityId))
      .where(and(eq(rooms.id, resolved.roomId), eq(rooms.entityId, resolved.entityId))),
    services.db
      .select({ type: roomLinks.type, url: roomLinks.url })
      .from(roomLinks)
      .where(and(eq(roomLinks.roomId, resolved.roomId), eq(roomLinks.entityId, resolved.entityId)))
      .orderBy(asc(roomLinks.type), asc(roomLinks.id)),
    listReportableIncidentTypes(ctx, resolved.equipmentItemId ? { equipmentItemId: resolved.equipmentItemId } : { roomId: resolved.roomId }),
  ]);
  if (!place) throw reportPlaceNotFound();
  const [item] = resolved.equipmentItemId
    ? await services.db
        .select({ id: equipmentItems.id, name: equipmentTypes.name, internalReference: equipmentItems.internalReference })
        .from(equipmentItems)
        .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentItems.equipmentTypeId))
        .where(and(eq(equipmentItems.id, resolved.equipmentItemId), eq(equipmentItems.entityId, resolved.entityId)))
    : [];
  const checklists = types.length
    ? await services.db
        .select({
          incidentTypeId: incidentTypeChecklistItems.incidentTypeId,
          position: incidentTypeChecklistItems.position,
          question: checklistQuestion(locale),
          tutorialLink: incidentTypeChecklistItems.tutorialLink,
          message: incidentTypeChecklistItems.message,
          contentType: incidentTypeChecklistItems.contentType,
        })
        .from(incidentTypeChecklistItems)
        .where(
          and(
            eq(incidentTypeChecklistItems.entityId, resolved.entityId),
            inArray(
              incidentTypeChecklistItems.incidentTypeId,
              types.map((t) => t.id),
            ),
          ),
        )
        .orderBy(asc(incidentTypeChecklistItems.position), asc(incidentTypeChecklistItems.id))
    : [];
  return {
    code,
    entity: {
      id: resolved.entityId,
      name: place.entityName,
      // Served publicly by the report page itself (/files/{id} is for signed-in users).
      logoUrl: place.logoFileId ? `/report/${code}/logo` : null,
      logoFileId: place.logoFileId,
      color: place.color,
      textColor: place.textColor,
      greeting: greetingFor(locale, place),
    },
    facilityName: place.facilityName,
    buildingName: place.buildingName,
    roomId: resolved.roomId,
    roomName: place.roomName,
    floor: place.floor,
    equipmentItem: item ?? null,
    links,
    incidentTypes: types.map((t) => ({
      ...t,
      checklist: checklists
        .filter((c) => c.incidentTypeId === t.id)
        .map(({ position, question, tutorialLink, message, contentType }) => ({ position, question, tutorialLink, message, contentType })),
    })),
  };
}

/**
 * The staff side of a sticker: where a signed-in person of the sticker's entity goes from its page, the
 * item's screen (`/view-equipment/{id}`) for an item's sticker, the room view for a room's, when they
 * reach that room; null for anyone else (another entity's user, a room out of their reach).
 */
export async function staffPlaceLink(ctx: ServiceContext, place: Pick<ReportPlace, "entity" | "roomId" | "equipmentItem">): Promise<string | null> {
  if (place.entity.id !== ctx.entityId || !can(ctx.actor, "read", "place")) return null;
  const [room] = await ctx.db
    .select({ id: rooms.id })
    .from(rooms)
    .where(and(eq(rooms.id, place.roomId), eq(rooms.entityId, ctx.entityId), isNull(rooms.archivedAt), treeScope(ctx, "room")));
  if (!room) return null;
  return place.equipmentItem ? `/view-equipment/${place.equipmentItem.id}` : `/view-room/${room.id}`;
}
