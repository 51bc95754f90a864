import { beforeAll, describe, expect, it } from "vitest";
import { storedFiles, type User } from "~/db/schema";
import { addDays, dayIn } from "~/lib/dates";
import { keptAddresses, keptPages } from "~/modules/offline/kept-pages.server";
import { createBuilding, createIncident, createIncidentFile, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { actorContext } from "#tests/service-helpers";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";
import { IncidentStatus, Role, TaskStatus } from "~/db/enums";

/**
 * What one person keeps for working offline (issue 64): their tasks of today and tomorrow and their
 * pending overdue ones, their open incidents with their photos, and the rooms those are in; nothing of a
 * colleague, of a place out of their reach or of another entity.
 */
const handle = setupTestDatabase();
const people = setupTwoEntities(handle);

const today = dayIn(new Date(), "Europe/Brussels");
const tomorrow = addDays(today, 1);
let colleague: User;
let ids: Record<string, number>;
let photoId: string;
let documentId: string;

const keep = (user: User) => keptPages(actorContext(handle.db, user));

async function storedFile(entityId: number, mimeType: string): Promise<string> {
  const [row] = await handle.db
    .insert(storedFiles)
    .values({ entityId, storageKey: `test/${crypto.randomUUID()}`, originalName: "x", mimeType, sizeBytes: 10 })
    .returning({ id: storedFiles.id });
  return row.id;
}

beforeAll(async () => {
  const db = handle.db;
  const entityId = people.entity.id;
  const technician = people.technician;
  colleague = await createUser(db, { entityId, role: Role.TECHNICIAN });
  const linked = await createBuilding(db, { entityId, name: "Linked block" });
  const far = await createBuilding(db, { entityId, name: "Far block" });
  const boilerRoom = await createRoom(db, { entityId, buildingId: linked.id, name: "Boiler room" });
  const office = await createRoom(db, { entityId, buildingId: linked.id, name: "Office" });
  const farRoom = await createRoom(db, { entityId, buildingId: far.id, name: "Far room" });
  await linkUserTo(db, { entityId, userId: technician.id, buildingId: linked.id });
  await linkUserTo(db, { entityId, userId: colleague.id, buildingId: linked.id });

  const mine = await createPlannedMaintenance(db, { entityId, name: "Boiler check", assigneeIds: [technician.id] });
  const theirs = await createPlannedMaintenance(db, { entityId, name: "Filter change", assigneeIds: [colleague.id] });
  const task = (planId: number, roomId: number, dueDate: string, extra: { status?: TaskStatus; assigneeId?: number } = {}) =>
    createTask(db, { entityId, plannedMaintenanceId: planId, roomId, dueDate, ...extra });
  await task(mine.id, boilerRoom.id, today);
  await task(mine.id, boilerRoom.id, tomorrow);
  await task(mine.id, boilerRoom.id, addDays(today, 3)); // later: not kept
  await task(mine.id, boilerRoom.id, addDays(today, -2)); // overdue, pending: kept
  await task(mine.id, boilerRoom.id, addDays(today, -4), { status: TaskStatus.DONE }); // done before: not kept
  await task(mine.id, farRoom.id, today); // out of the technician's reach
  await task(theirs.id, office.id, today); // the colleague's
  await task(theirs.id, office.id, tomorrow, { assigneeId: technician.id }); // the colleague's plan, given to the technician

  const open = await createIncident(db, { entityId, roomId: office.id, title: "Leak in the office", assigneeId: technician.id });
  const started = await createIncident(db, { entityId, roomId: boilerRoom.id, title: "Boiler noise", assigneeId: technician.id, status: IncidentStatus.IN_PROGRESS });
  await createIncident(db, { entityId, roomId: office.id, title: "Fixed", assigneeId: technician.id, status: IncidentStatus.DONE });
  await createIncident(db, { entityId, roomId: office.id, title: "Colleague's", assigneeId: colleague.id });
  await createIncident(db, { entityId, roomId: farRoom.id, title: "Far away", assigneeId: technician.id });
  await createIncident(db, { entityId: people.other.id, title: "Another entity's", assigneeId: technician.id });
  photoId = await storedFile(entityId, "image/jpeg");
  documentId = await storedFile(entityId, "application/pdf");
  await createIncidentFile(db, { entityId, incidentId: open.id, fileId: photoId });
  await createIncidentFile(db, { entityId, incidentId: open.id, fileId: documentId });
  ids = { mine: mine.id, theirs: theirs.id, open: open.id, started: started.id, boilerRoom: boilerRoom.id, office: office.id, farRoom: farRoom.id };
});

describe("keptPages", () => {
  it("keeps a technician's tasks of today and tomorrow, their overdue pending ones, their open incidents, photos and rooms", async () => {
    const kept = await keep(people.technician);
    expect(kept.person).toBe(`e${people.entity.id}-u${people.technician.id}`);
    expect(kept.tasks.map((t) => t.href).sort()).toEqual(
      [`/view-task/${ids.mine}/${addDays(today, -2)}`, `/view-task/${ids.mine}/${today}`, `/view-task/${ids.mine}/${tomorrow}`, `/view-task/${ids.theirs}/${tomorrow}`].sort(),
    );
    // Assigned to them, an incident is theirs to open even in a room out of their reach (decision 022); that room is not kept.
    expect(kept.incidents.map((i) => i.title).sort()).toEqual(["Boiler noise", "Far away", "Leak in the office"]);
    expect(kept.incidents.map((i) => i.href)).toEqual(expect.arrayContaining([`/incident/${ids.open}`, `/incident/${ids.started}`]));
    expect(kept.rooms.map((r) => r.href).sort()).toEqual([`/view-room/${ids.boilerRoom}`, `/view-room/${ids.office}`].sort());
    expect(kept.photos).toEqual([`/files/${photoId}`]);
  });

  it("lists the addresses in order: the offline page and the lists first, never a file that is not a photo", async () => {
    const { pages, files } = keptAddresses(await keep(people.technician));
    expect(pages.slice(0, 3)).toEqual(["/offline", "/task", "/incidents"]);
    expect(pages).toContain(`/incident/${ids.open}`);
    expect(pages).not.toContain(`/view-room/${ids.farRoom}`);
    expect(files).toEqual([`/files/${photoId}`]);
    expect(files).not.toContain(`/files/${documentId}`);
  });

  it("keeps nothing of the technician's for a colleague, and nothing of either for another entity", async () => {
    const colleagues = await keep(colleague);
    expect(colleagues.tasks.map((t) => t.href)).toEqual([`/view-task/${ids.theirs}/${today}`]);
    expect(colleagues.incidents.map((i) => i.title)).toEqual(["Colleague's"]);
    expect(colleagues.photos).toEqual([]);
    const foreign = await keep(people.otherAdmin);
    expect(foreign.person).toBe(`e${people.other.id}-u${people.otherAdmin.id}`);
    expect(foreign.tasks).toEqual([]);
    expect(foreign.incidents).toEqual([]);
    expect(foreign.rooms).toEqual([]);
  });
});
