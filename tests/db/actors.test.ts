import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actor, personActor, SUBJECTS, systemActor, tokenActor } from "../../app/core/actor";
import type { Database } from "../../app/db/client.server";
import { IncidentEventType, IncidentStatus, Role } from "../../app/db/enums";
import { type Building, incidentEvents, incidents, type User, userLinkedObjects } from "../../app/db/schema";
import { ForbiddenError, NotFoundError } from "../../app/lib/errors";
import { createFacility as createFacilityVerb } from "../../app/modules/facilities/service.server";
import { setIncidentStatus } from "../../app/modules/incidents/service.server";
import { archiveUser } from "../../app/modules/users/management.server";
import { listUsers } from "../../app/modules/users/queries.server";
import { createBuilding, createEntity, createIncident, createRoom, createUser, linkUserTo } from "../factories";
import { listQuery, rejectionOf } from "../service-helpers";
import { createTestServices, type TestServices } from "../test-context";
import { createTestDatabase } from "../test-db";

/**
 * The actors of decision 048 acting through the real verbs: a job acting as the system and an API token
 * pass the same permission table as a person; a token never does what its person cannot, and acts within
 * its person's reach.
 */
let database: Database;
let services: TestServices;
let entityId: number;
let building: Building;
let farBuilding: Building;
let technician: User;
let manager: User;
let leaver: User;

beforeAll(async () => {
  database = await createTestDatabase();
  services = await createTestServices(database);
  const db = database.db;
  entityId = (await createEntity(db)).id;
  building = await createBuilding(db, { entityId });
  farBuilding = await createBuilding(db, { entityId });
  technician = await createUser(db, { entityId, role: Role.TECHNICIAN });
  manager = await createUser(db, { entityId, role: Role.FACILITY_MANAGER });
  leaver = await createUser(db, { entityId, role: Role.TECHNICIAN });
  for (const user of [technician, manager]) await linkUserTo(db, { entityId, userId: user.id, buildingId: building.id });
});
afterAll(async () => {
  await services?.close();
  await database?.close();
});

const as = (actor: Actor) => services.ctx(entityId, actor);
const everything = SUBJECTS.map((s) => `${s}:*` as const);
async function openIncident(buildingId = building.id) {
  const room = await createRoom(database.db, { entityId, buildingId });
  return createIncident(database.db, { entityId, roomId: room.id });
}

describe("actors through the verbs", () => {
  it("a technician's token handles incidents in the technician's reach, and nothing the technician may not do", async () => {
    const token = tokenActor(technician, 1, everything);
    const mine = await openIncident();
    expect((await setIncidentStatus(as(token), mine.id, { status: IncidentStatus.IN_PROGRESS })).status).toBe(IncidentStatus.IN_PROGRESS);
    const [event] = await database.db.select().from(incidentEvents).where(and(eq(incidentEvents.incidentId, mine.id), eq(incidentEvents.type, IncidentEventType.STATUS_UPDATE)));
    expect(event.actorId).toBe(technician.id);
    // Out of the technician's reach: not found, as for the technician.
    const far = await openIncident(farBuilding.id);
    expect(await rejectionOf(setIncidentStatus(as(token), far.id, { status: IncidentStatus.DONE }))).toBeInstanceOf(NotFoundError);
    // What the technician may not do, their token may not either.
    expect(await rejectionOf(createFacilityVerb(as(personActor(technician)), { name: "Nope" }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(createFacilityVerb(as(token), { name: "Nope" }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(listUsers(as(token), listQuery("surname")))).toBeInstanceOf(ForbiddenError);
  });

  it("a token does only what its scopes grant, even where its person may do more", async () => {
    const readOnly = tokenActor(manager, 2, ["incident:read", "place:read"]);
    const incident = await openIncident();
    expect(await rejectionOf(setIncidentStatus(as(readOnly), incident.id, { status: IncidentStatus.DONE }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(createFacilityVerb(as(readOnly), { name: "Nope" }))).toBeInstanceOf(ForbiddenError);
    expect((await setIncidentStatus(as(personActor(manager)), incident.id, { status: IncidentStatus.DONE })).status).toBe(IncidentStatus.DONE);
    const [row] = await database.db.select().from(incidents).where(eq(incidents.id, incident.id));
    expect(row.status).toBe(IncidentStatus.DONE);
  });

  it("the system does a job's work for the whole entity, records no person, and manages nobody", async () => {
    const job = systemActor("test-job");
    const anywhere = await openIncident(farBuilding.id);
    expect((await setIncidentStatus(as(job), anywhere.id, { status: IncidentStatus.REJECTED })).status).toBe(IncidentStatus.REJECTED);
    const [event] = await database.db.select().from(incidentEvents).where(and(eq(incidentEvents.incidentId, anywhere.id), eq(incidentEvents.type, IncidentEventType.STATUS_UPDATE)));
    expect(event.actorId).toBeNull();
    // A facility made by the system links nobody to it (a person's would link its maker).
    const facility = await createFacilityVerb(as(job), { name: "Made by a job" });
    expect(await database.db.select().from(userLinkedObjects).where(eq(userLinkedObjects.facilityId, facility.id))).toEqual([]);
    expect(await rejectionOf(archiveUser(as(job), leaver.id, {}))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(listUsers(as(job), listQuery("surname")))).toBeInstanceOf(ForbiddenError);
  });

  it("nobody (a visitor) does nothing", async () => {
    const incident = await openIncident();
    expect(await rejectionOf(setIncidentStatus(services.ctx(entityId, null), incident.id, { status: IncidentStatus.DONE }))).toBeInstanceOf(ForbiddenError);
  });
});
