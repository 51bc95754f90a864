import { and, eq, inArray, isNull, like } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { IncidentStatus } from "~/db/enums";
import { incidentFiles, rooms as roomTable, storedFiles } from "~/db/schema";
import { addDays } from "~/lib/dates";
import { MAX_KEPT, OFFLINE_PAGE, personKey } from "~/lib/offline-rules";
import { treeScope } from "~/modules/facilities/policy.server";
import { NO_FILTERS } from "~/modules/incidents/filters";
import { listIncidents } from "~/modules/incidents/queries.server";
import { tasksBetween, todayOf } from "~/modules/maintenance/task-queries.server";

/** The most open incidents kept, newest first. */
const MAX_INCIDENTS = 50;
/** The most tasks kept (today's and tomorrow's). */
const MAX_TASKS = 100;
/** How far back overdue tasks are kept. */
const OVERDUE_DAYS = 31;
/** The most photos kept (of the kept incidents). */
const MAX_PHOTOS = 40;

export interface KeptTask {
  href: string;
  planName: string;
  roomName: string;
  buildingName: string;
  dueDate: string;
  done: boolean;
}
export interface KeptIncident {
  href: string;
  shortId: number;
  title: string;
}
export interface KeptRoom {
  href: string;
  roomName: string;
  buildingName: string;
}

/** What one person keeps for a day offline (issue 64): read for the offline page and the service worker. */
export interface KeptPages {
  person: string;
  today: string;
  tomorrow: string;
  tasks: KeptTask[];
  incidents: KeptIncident[];
  rooms: KeptRoom[];
  /** The kept incidents' photos. */
  photos: string[];
}

/**
 * The pages the signed-in person keeps for working offline: their tasks of today and tomorrow and those
 * still pending of the last month (each task's day of its plan), their open incidents (Pending or In Progress, assigned to them) with their
 * photos, and the rooms those are in; everything within the person's reach, in their entity only.
 */
export async function keptPages(ctx: ServiceContext): Promise<KeptPages> {
  const me = ctx.actor?.id;
  if (!me) throw new Error("keptPages needs a signed-in person");
  const today = todayOf(ctx);
  const tomorrow = addDays(today, 1);
  const [overdueRows, taskRows, incidentPage] = await Promise.all([
    // The overdue ones first (still pending, up to a month back), as the task list shows them.
    tasksBetween(ctx, { from: addDays(today, -OVERDUE_DAYS), to: addDays(today, -1) }, { assignee: "me", status: "pending" }, { max: MAX_TASKS }),
    tasksBetween(ctx, { from: today, to: tomorrow }, { assignee: "me" }, { max: MAX_TASKS }),
    listIncidents(ctx, { page: 1, size: MAX_INCIDENTS, sort: "createdAt", dir: "desc", q: "" }, { ...NO_FILTERS, statuses: [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS], assignee: "me" }),
  ]);

  const tasks = new Map<string, KeptTask>();
  const rooms = new Map<number, KeptRoom>();
  for (const row of [...overdueRows.items, ...taskRows.items]) {
    const href = `/view-task/${row.plannedMaintenanceId}/${row.dueDate}`;
    const kept = tasks.get(href);
    if (kept) kept.done &&= row.status !== 0;
    else tasks.set(href, { href, planName: row.planName, roomName: row.roomName, buildingName: row.buildingName, dueDate: row.dueDate, done: row.status !== 0 });
    if (!rooms.has(row.roomId)) rooms.set(row.roomId, { href: `/view-room/${row.roomId}`, roomName: row.roomName, buildingName: row.buildingName });
  }
  // An incident assigned to the person may lie in a room they cannot open (decision 022): that room is not kept.
  const incidentRooms = incidentPage.items.map((row) => row.location).filter((l) => l.roomId !== null && !rooms.has(l.roomId));
  const reached = await roomsInReach(ctx, incidentRooms.map((l) => l.roomId!));
  for (const { roomId, roomName, buildingName } of incidentRooms) {
    if (reached.has(roomId!)) rooms.set(roomId!, { href: `/view-room/${roomId}`, roomName: roomName ?? "", buildingName: buildingName ?? "" });
  }
  const incidents = incidentPage.items.map((row) => ({ href: `/incident/${row.id}`, shortId: row.shortId, title: row.title }));

  const incidentIds = incidentPage.items.map((row) => row.id);
  const photos = incidentIds.length
    ? await ctx.db
        .select({ id: storedFiles.id })
        .from(incidentFiles)
        .innerJoin(storedFiles, and(eq(storedFiles.id, incidentFiles.fileId), eq(storedFiles.entityId, ctx.entityId)))
        .where(and(eq(incidentFiles.entityId, ctx.entityId), inArray(incidentFiles.incidentId, incidentIds), isNull(storedFiles.deletedAt), like(storedFiles.mimeType, "image/%")))
        .limit(MAX_PHOTOS)
    : [];

  return {
    person: personKey(ctx.entityId, me),
    today,
    tomorrow,
    tasks: [...tasks.values()],
    incidents,
    rooms: [...rooms.values()],
    photos: photos.map((photo) => `/files/${photo.id}`),
  };
}

/** Those of `ids` that are rooms the person may open. */
async function roomsInReach(ctx: ServiceContext, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const found = await ctx.db
    .select({ id: roomTable.id })
    .from(roomTable)
    .where(and(eq(roomTable.entityId, ctx.entityId), inArray(roomTable.id, ids), isNull(roomTable.archivedAt), treeScope(ctx, "room")));
  return new Set(found.map((room) => room.id));
}

/** The addresses the service worker keeps, in the order it fetches them (the most needed first). */
export function keptAddresses(kept: KeptPages): { pages: string[]; files: string[] } {
  const pages = [OFFLINE_PAGE, "/task", "/incidents", ...kept.tasks.map((t) => t.href), ...kept.incidents.map((i) => i.href), ...kept.rooms.map((r) => r.href)];
  return { pages: pages.slice(0, MAX_KEPT), files: kept.photos.slice(0, Math.max(0, MAX_KEPT - pages.length)) };
}
