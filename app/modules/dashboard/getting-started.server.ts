import { sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { QrPrintStatus } from "~/db/enums";
import { buildings, equipmentCategories, equipmentTypes, facilities, incidentTypes, reportIdentifiers, rooms, roomTypes } from "~/db/schema";
import { rowsOf } from "~/lib/list-page.server";

/**
 * The getting-started path of a new entity, in the order a first room needs them: a facility and a
 * building, a room type, an equipment category and a generic equipment (a room's equipment), the room,
 * an incident type (what occupiers report), then its stickers printed. Each step links to the screen
 * that adds it.
 */
export const GETTING_STARTED_STEPS = [
  { key: "facility", href: "/add-facility" },
  { key: "building", href: "/add-building" },
  { key: "roomType", href: "/add-room-type" },
  { key: "equipmentCategory", href: "/add-equipment-category" },
  { key: "genericEquipment", href: "/add-generic-equipment" },
  { key: "room", href: "/add-room" },
  { key: "incidentType", href: "/add-incident-type" },
  { key: "stickers", href: "/printing" },
] as const;

export type GettingStartedKey = (typeof GETTING_STARTED_STEPS)[number]["key"];

export interface GettingStartedStep {
  key: GettingStartedKey;
  href: string;
  done: boolean;
}

/**
 * The steps with what the viewer's entity has done (anything not archived counts; stickers: one printed),
 * or null once every step is done, when the dashboard no longer shows the path.
 */
export async function getGettingStarted(ctx: ServiceContext): Promise<GettingStartedStep[] | null> {
  assertCan(ctx.actor, "read", "dashboard");
  const entityId = ctx.entityId;
  const result = await ctx.db.execute(sql`select
    exists (select 1 from ${facilities} where ${facilities.entityId} = ${entityId} and ${facilities.archivedAt} is null) as "facility",
    exists (select 1 from ${buildings} where ${buildings.entityId} = ${entityId} and ${buildings.archivedAt} is null) as "building",
    exists (select 1 from ${roomTypes} where ${roomTypes.entityId} = ${entityId} and ${roomTypes.archivedAt} is null) as "roomType",
    exists (select 1 from ${equipmentCategories} where ${equipmentCategories.entityId} = ${entityId} and ${equipmentCategories.archivedAt} is null) as "equipmentCategory",
    exists (select 1 from ${equipmentTypes} where ${equipmentTypes.entityId} = ${entityId} and ${equipmentTypes.archivedAt} is null) as "genericEquipment",
    exists (select 1 from ${rooms} where ${rooms.entityId} = ${entityId} and ${rooms.archivedAt} is null) as "room",
    exists (select 1 from ${incidentTypes} where ${incidentTypes.entityId} = ${entityId} and ${incidentTypes.archivedAt} is null) as "incidentType",
    exists (select 1 from ${reportIdentifiers} where ${reportIdentifiers.entityId} = ${entityId}
      and ${reportIdentifiers.archivedAt} is null and ${reportIdentifiers.qrPrintStatus} <> ${QrPrintStatus.NOT_PRINTED}) as "stickers"`);
  const [row] = rowsOf<Record<GettingStartedKey, boolean>>(result);
  const steps = GETTING_STARTED_STEPS.map((step) => ({ ...step, done: row?.[step.key] === true }));
  return steps.every((step) => step.done) ? null : steps;
}
