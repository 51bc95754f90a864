import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "~/db/client.server";
import { systemActor, tokenActor } from "~/core/actor";
import { IncidentEventType, InspectionCheckKind, Priority, Role, TaskStatus } from "~/db/enums";
import {
  auditLog,
  changeEvents,
  type Entity,
  incidentChecklistAnswers,
  incidentEvents,
  incidentFiles,
  incidents,
  type IncidentType,
  maintenanceTypeChecks,
  type MaintenanceType,
  type Room,
  taskCheckAnswers,
  tasks,
  type User,
} from "~/db/schema";
import { ForbiddenError, NotFoundError } from "~/lib/errors";
import {
  createBuilding,
  createEntity,
  createIncidentType,
  createMaintenanceCheck,
  createMaintenanceType,
  createPlannedMaintenance,
  createRoom,
  createTask,
  createUser,
  linkUserTo,
  pngBytes,
} from "#tests/factories";
import { fieldErrorsOf, rejectionOf } from "#tests/service-helpers";
import { createTestServices, type TestServices } from "#tests/test-context";
import { createTestDatabase } from "#tests/test-db";
import { getReadableFile } from "~/modules/files/access.server";
import { renderInspectionReport } from "./inspection-report.server";
import { addMaintenanceCheck, removeMaintenanceCheck, taskAnswers, taskOfIncident, updateMaintenanceCheck } from "./inspections.server";
import { completeTask, reopenTask } from "./tasks.server";

let database: Database;
let second: Database;
let services: TestServices;
let entityA: Entity;
let entityB: Entity;
let manager: User;
let technician: User;
let farTechnician: User;
let otherManager: User;
let room: Room;
let roomFacilityId: number;
let type: MaintenanceType;
let leakType: IncidentType;
let otherEntityType: IncidentType;
let planId: number;
/** The checks of `type`: extinguisher sealed (pass/fail, photo required), pressure 1.5 to 2.5 bar, remarks. */
let sealed: number;
let pressure: number;
let remarks: number;

const ctxOf = (user: User) => services.ctx(user.entityId, { id: user.id, role: user.role });
let day = 0;
const newTask = () => createTask(database.db, { entityId: entityA.id, plannedMaintenanceId: planId, roomId: room.id, dueDate: `2027-01-${String(++day).padStart(2, "0")}` });
const photo = () => ({ bytes: pngBytes(4, 4), name: "seal.png" });
const answersOf = (seal: string, bar: string) => ({
  checks: { [sealed]: seal, [pressure]: bar, [remarks]: "Hose replaced" },
  checkPhotos: { [sealed]: photo() },
});
const incidentsOfRoom = () => database.db.select().from(incidents).where(eq(incidents.roomId, room.id)).orderBy(asc(incidents.id));
const snapshot = async (taskId: number) => ({
  task: (await database.db.select().from(tasks).where(eq(tasks.id, taskId)))[0],
  answers: await database.db.select().from(taskCheckAnswers).where(eq(taskCheckAnswers.taskId, taskId)),
  incidents: await incidentsOfRoom(),
});

beforeAll(async () => {
  database = await createTestDatabase();
  second = database.url ? await openDatabase({ url: database.url, poolMax: 3 }) : database;
  services = await createTestServices(database);
  entityA = await createEntity(database.db);
  entityB = await createEntity(database.db);
  manager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER, name: "Mia", surname: "Manager" });
  technician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  farTechnician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherManager = await createUser(database.db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
  const building = await createBuilding(database.db, { entityId: entityA.id });
  const farBuilding = await createBuilding(database.db, { entityId: entityA.id });
  room = await createRoom(database.db, { entityId: entityA.id, buildingId: building.id, name: "Boiler room" });
  roomFacilityId = building.facilityId;
  await linkUserTo(database.db, { entityId: entityA.id, userId: manager.id, facilityId: building.facilityId });
  await linkUserTo(database.db, { entityId: entityA.id, userId: technician.id, buildingId: building.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: farTechnician.id, buildingId: farBuilding.id });
  leakType = await createIncidentType(database.db, { entityId: entityA.id, nameEn: "Leak", appliesEverywhere: true });
  otherEntityType = await createIncidentType(database.db, { entityId: entityB.id, nameEn: "Elsewhere" });
  type = await createMaintenanceType(database.db, { entityId: entityA.id, name: "Fire safety round" });
  planId = (await createPlannedMaintenance(database.db, { entityId: entityA.id, name: "Extinguishers", maintenanceTypeId: type.id, assigneeIds: [technician.id] })).id;
  sealed = (
    await createMaintenanceCheck(database.db, {
      entityId: entityA.id,
      maintenanceTypeId: type.id,
      position: 0,
      label: "Seal intact",
      labelFr: "Scellé intact",
      labelNl: "Zegel intact",
      photoRequired: true,
      incidentTypeId: leakType.id,
      priority: Priority.HIGH,
    })
  ).id;
  pressure = (
    await createMaintenanceCheck(database.db, { entityId: entityA.id, maintenanceTypeId: type.id, position: 1, kind: InspectionCheckKind.NUMBER, label: "Pressure (bar)", minValue: 1.5, maxValue: 2.5, priority: Priority.CRITICAL })
  ).id;
  remarks = (await createMaintenanceCheck(database.db, { entityId: entityA.id, maintenanceTypeId: type.id, position: 2, kind: InspectionCheckKind.TEXT, label: "Remarks" })).id;
});

afterAll(async () => {
  if (second && second !== database) await second.close();
  await services?.close();
  await database?.close();
});

describe("the checklist of a maintenance type", () => {
  it("is added to, changed and removed from by a manager, in three languages, with an audit row each", async () => {
    const own = await createMaintenanceType(database.db, { entityId: entityA.id, name: "Roof round" });
    const { id } = await addMaintenanceCheck(ctxOf(manager), own.id, {
      kind: 1,
      label: "Gutter depth (cm)",
      labelFr: "Profondeur (cm)",
      labelNl: "Diepte (cm)",
      minValue: 0,
      maxValue: 5,
      photoRequired: true,
      incidentTypeId: leakType.id,
      priority: 2,
    });
    const [row] = await database.db.select().from(maintenanceTypeChecks).where(eq(maintenanceTypeChecks.id, id));
    expect(row).toMatchObject({ entityId: entityA.id, maintenanceTypeId: own.id, position: 0, kind: 1, label: "Gutter depth (cm)", labelFr: "Profondeur (cm)", labelNl: "Diepte (cm)", minValue: 0, maxValue: 5, photoRequired: true, incidentTypeId: leakType.id, priority: 2 });

    // A pass/fail check keeps no range.
    await updateMaintenanceCheck(ctxOf(manager), own.id, id, { kind: 0, labelNl: "Goot vrij", minValue: 1, maxValue: 2, priority: 0 });
    const [changed] = await database.db.select().from(maintenanceTypeChecks).where(eq(maintenanceTypeChecks.id, id));
    expect(changed).toMatchObject({ kind: 0, label: null, labelFr: null, labelNl: "Goot vrij", minValue: null, maxValue: null, photoRequired: false, incidentTypeId: null, priority: 0 });

    await removeMaintenanceCheck(ctxOf(manager), own.id, id);
    expect(await database.db.select().from(maintenanceTypeChecks).where(eq(maintenanceTypeChecks.maintenanceTypeId, own.id))).toEqual([]);
    const audit = await database.db.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.recordType, "maintenanceType"), eq(auditLog.recordId, String(own.id)))).orderBy(asc(auditLog.id));
    expect(audit.map((a) => a.action)).toEqual(["maintenanceType.add-check", "maintenanceType.update-check", "maintenanceType.remove-check"]);
  });

  it("needs a label in one language, a range that is one, and an incident type of the entity", async () => {
    expect(await fieldErrorsOf(addMaintenanceCheck(ctxOf(manager), type.id, { kind: 0, label: " ", priority: 1 }))).toMatchObject({ label: ["maintenance:checks.validation.labelRequired"] });
    expect(await fieldErrorsOf(addMaintenanceCheck(ctxOf(manager), type.id, { kind: 1, label: "Bar", minValue: 3, maxValue: 2, priority: 1 }))).toMatchObject({ maxValue: ["maintenance:checks.validation.range"] });
    expect(await fieldErrorsOf(addMaintenanceCheck(ctxOf(manager), type.id, { kind: 0, label: "Bar", incidentTypeId: otherEntityType.id, priority: 1 }))).toMatchObject({
      incidentTypeId: ["maintenance:checks.validation.incidentType"],
    });
    expect(await database.db.select({ id: maintenanceTypeChecks.id }).from(maintenanceTypeChecks).where(eq(maintenanceTypeChecks.maintenanceTypeId, type.id))).toHaveLength(3);
  });

  it("refuses another entity's manager (not found) and a technician (forbidden), changing nothing", async () => {
    const before = await database.db.select().from(maintenanceTypeChecks).where(eq(maintenanceTypeChecks.maintenanceTypeId, type.id)).orderBy(asc(maintenanceTypeChecks.id));
    expect(await rejectionOf(addMaintenanceCheck(ctxOf(otherManager), type.id, { kind: 0, label: "Sneaky", priority: 1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(updateMaintenanceCheck(ctxOf(otherManager), type.id, sealed, { kind: 0, label: "Sneaky", priority: 1 }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(removeMaintenanceCheck(ctxOf(otherManager), type.id, sealed))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(addMaintenanceCheck(ctxOf(technician), type.id, { kind: 0, label: "Sneaky", priority: 1 }))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(removeMaintenanceCheck(ctxOf(technician), type.id, sealed))).toBeInstanceOf(ForbiddenError);
    // A check of another type is not one of this type's.
    const own = await createMaintenanceType(database.db, { entityId: entityA.id });
    expect(await rejectionOf(removeMaintenanceCheck(ctxOf(manager), own.id, sealed))).toBeInstanceOf(NotFoundError);
    expect(await database.db.select().from(maintenanceTypeChecks).where(eq(maintenanceTypeChecks.maintenanceTypeId, type.id)).orderBy(asc(maintenanceTypeChecks.id))).toEqual(before);
  });
});

describe("doing an inspection", () => {
  it("opens exactly one incident for a failed check, with the answers and photo, linked both ways, and signs off", async () => {
    const task = await newTask();
    const before = (await incidentsOfRoom()).length;
    const done = await completeTask(ctxOf(technician), task.id, answersOf("fail", "2,0"));
    expect(done).toMatchObject({ status: TaskStatus.DONE, signedOffById: technician.id, signedOffName: "Tom Tech" });
    expect(done.signedOffAt).toBeInstanceOf(Date);

    const opened = (await incidentsOfRoom()).slice(before);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ entityId: entityA.id, roomId: room.id, equipmentItemId: null, incidentTypeId: leakType.id, priority: Priority.HIGH, title: "Extinguishers: Seal intact", location: "Boiler room" });
    // The technician who signed it off handles incidents of the room: the incident is theirs.
    expect(opened[0].assigneeId).toBe(technician.id);
    const assigned = await database.db.select().from(incidentEvents).where(and(eq(incidentEvents.incidentId, opened[0].id), eq(incidentEvents.type, IncidentEventType.ASSIGNED)));
    expect(assigned.map((e) => e.newValue)).toEqual([{ id: technician.id, name: "Tom Tech" }]);
    const carried = await database.db
      .select({ position: incidentChecklistAnswers.position, question: incidentChecklistAnswers.question, contentType: incidentChecklistAnswers.contentType, answer: incidentChecklistAnswers.answer })
      .from(incidentChecklistAnswers)
      .where(eq(incidentChecklistAnswers.incidentId, opened[0].id))
      .orderBy(asc(incidentChecklistAnswers.position));
    expect(carried).toEqual([
      { position: 0, question: "Seal intact", contentType: 0, answer: "no" },
      { position: 1, question: "Pressure (bar)", contentType: 2, answer: "2" },
      { position: 2, question: "Remarks", contentType: 1, answer: "Hose replaced" },
    ]);
    const answers = await taskAnswers(ctxOf(technician), task.id);
    expect(answers.map((a) => [a.label, a.answer, a.passed, a.incident?.id ?? null])).toEqual([
      ["Seal intact", "fail", false, opened[0].id],
      ["Pressure (bar)", "2", true, null],
      ["Remarks", "Hose replaced", null, null],
    ]);
    const files = await database.db.select({ fileId: incidentFiles.fileId }).from(incidentFiles).where(eq(incidentFiles.incidentId, opened[0].id));
    expect(files).toEqual([{ fileId: answers[0].photoFileId }]);
    // The check's photo is read like the task's own: by those who reach the room, nobody else.
    expect((await getReadableFile(ctxOf(technician), answers[0].photoFileId!)).id).toBe(answers[0].photoFileId);
    expect(await rejectionOf(getReadableFile(ctxOf(farTechnician), answers[0].photoFileId!))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(getReadableFile(ctxOf(otherManager), answers[0].photoFileId!))).toBeInstanceOf(NotFoundError);
    expect(await taskOfIncident(ctxOf(manager), opened[0].id)).toMatchObject({ taskId: task.id, planName: "Extinguishers", label: "Seal intact" });
    const created = await database.db.select().from(changeEvents).where(and(eq(changeEvents.type, "incident.created"), eq(changeEvents.subjectId, opened[0].id)));
    expect(created).toHaveLength(1);

    // Posted again: nothing more.
    await completeTask(ctxOf(technician), task.id, answersOf("fail", "9"));
    expect((await incidentsOfRoom()).slice(before)).toHaveLength(1);
    // Reopened and done again with the same failure: the check already opened its incident.
    await reopenTask(ctxOf(manager), task.id);
    expect((await database.db.select().from(tasks).where(eq(tasks.id, task.id)))[0]).toMatchObject({ signedOffById: null, signedOffAt: null });
    await completeTask(ctxOf(manager), task.id, answersOf("fail", "2"));
    expect((await incidentsOfRoom()).slice(before)).toHaveLength(1);
    expect((await database.db.select().from(tasks).where(eq(tasks.id, task.id)))[0]).toMatchObject({ signedOffById: manager.id, signedOffName: "Mia Manager" });
  });

  it("leaves the incident unassigned when whoever signs off may not handle incidents of the room", async () => {
    // A technician of another building, through a token limited to the room's facility, reaches the task
    // but not the room's incidents; a job signs off as nobody.
    const viaToken = await newTask();
    await database.db.update(tasks).set({ assigneeId: farTechnician.id }).where(eq(tasks.id, viaToken.id));
    const before = (await incidentsOfRoom()).length;
    const token = tokenActor(farTechnician, 1, ["task:update", "task:read"], { facilityIds: [roomFacilityId] });
    await completeTask(services.ctx(entityA.id, token), viaToken.id, answersOf("fail", "2"));
    const bySystem = await newTask();
    await completeTask(services.ctx(entityA.id, systemActor("test")), bySystem.id, answersOf("fail", "2"));
    const opened = (await incidentsOfRoom()).slice(before);
    expect(opened.map((i) => [i.title, i.assigneeId])).toEqual([
      ["Extinguishers: Seal intact", null],
      ["Extinguishers: Seal intact", null],
    ]);
  });

  it("opens one incident when the same done is posted by two processes at once", async () => {
    const task = await newTask();
    const before = (await incidentsOfRoom()).length;
    const secondCtx = { ...ctxOf(technician), db: second.db };
    await Promise.all([completeTask(ctxOf(technician), task.id, answersOf("fail", "2")), completeTask(secondCtx, task.id, answersOf("fail", "2"))]);
    expect((await incidentsOfRoom()).slice(before)).toHaveLength(1);
    expect(await database.db.select().from(taskCheckAnswers).where(eq(taskCheckAnswers.taskId, task.id))).toHaveLength(3);
  });

  it("opens none for a number inside its range, and one of the check's priority for a number outside it", async () => {
    const inside = await newTask();
    const before = (await incidentsOfRoom()).length;
    await completeTask(ctxOf(technician), inside.id, answersOf("pass", "2.5"));
    expect((await incidentsOfRoom()).slice(before)).toEqual([]);
    expect((await taskAnswers(ctxOf(technician), inside.id)).map((a) => a.passed)).toEqual([true, true, null]);

    const outside = await newTask();
    await completeTask(ctxOf(technician), outside.id, answersOf("pass", "1.4"));
    const opened = (await incidentsOfRoom()).slice(before);
    expect(opened.map((i) => [i.title, i.priority, i.incidentTypeId])).toEqual([["Extinguishers: Pressure (bar)", Priority.CRITICAL, null]]);
  });

  it("needs every check answered and the required photo, keeping the task pending", async () => {
    const task = await newTask();
    const errors = await fieldErrorsOf(completeTask(ctxOf(technician), task.id, { checks: { [sealed]: "maybe", [pressure]: "two" } }));
    expect(errors).toMatchObject({
      [`checks.${sealed}`]: ["maintenance:checks.validation.passFail"],
      [`checks.${pressure}`]: ["maintenance:checks.validation.number"],
      [`checks.${remarks}`]: ["maintenance:checks.validation.answerRequired"],
      [`checkPhotos.${sealed}`]: ["maintenance:checks.validation.photoRequired"],
    });
    const row = (await database.db.select().from(tasks).where(eq(tasks.id, task.id)))[0];
    expect(row.status).toBe(TaskStatus.PENDING);
    expect(await database.db.select().from(taskCheckAnswers).where(eq(taskCheckAnswers.taskId, task.id))).toEqual([]);
  });

  it("refuses another entity's person and a technician out of reach, changing nothing", async () => {
    const task = await newTask();
    const before = await snapshot(task.id);
    expect(await rejectionOf(completeTask(ctxOf(otherManager), task.id, answersOf("fail", "2")))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(completeTask(ctxOf(farTechnician), task.id, answersOf("fail", "2")))).toBeInstanceOf(NotFoundError);
    // An empty checklist is not how another entity learns of the task either.
    expect(await rejectionOf(completeTask(ctxOf(otherManager), task.id, {}))).toBeInstanceOf(NotFoundError);
    expect(await snapshot(task.id)).toEqual(before);
    const failed = await database.db.select({ id: incidents.id }).from(incidents).where(inArray(incidents.entityId, [entityB.id]));
    expect(failed).toEqual([]);
    // Another entity reads none of its answers or links.
    const failedHere = await newTask();
    await completeTask(ctxOf(technician), failedHere.id, answersOf("fail", "2"));
    const [answer] = await database.db.select().from(taskCheckAnswers).where(and(eq(taskCheckAnswers.taskId, failedHere.id), eq(taskCheckAnswers.checkId, sealed)));
    expect(await taskAnswers(ctxOf(otherManager), failedHere.id)).toEqual([]);
    expect(await taskOfIncident(ctxOf(otherManager), answer.incidentId!)).toBeNull();
  });
});

describe("the inspection report", () => {
  it("prints a task's answers, the failed check's incident and the sign-off, in the viewer's language, read back with pdftotext", async () => {
    const task = await newTask();
    await completeTask(ctxOf(technician), task.id, answersOf("fail", "3"));
    const opened = (await database.db.select().from(taskCheckAnswers).where(and(eq(taskCheckAnswers.taskId, task.id), eq(taskCheckAnswers.checkId, sealed))))[0].incidentId!;
    const [{ shortId }] = await database.db.select({ shortId: incidents.shortId }).from(incidents).where(eq(incidents.id, opened));
    const scope = { plannedMaintenanceId: planId, from: task.dueDate, to: task.dueDate, taskId: task.id };
    const english = pdfToText(await renderInspectionReport(ctxOf(manager), scope));
    expect(english).toContain("Inspection report");
    expect(english).toContain("Extinguishers · Fire safety round");
    expect(english).toContain("Boiler room");
    expect(english).toContain("Seal intact: Fail · Failed");
    expect(english).toContain(`Opened incident #${shortId}`);
    expect(english).toContain("Pressure (bar): 3 (Allowed: 1.5 to 2.5) · Failed");
    expect(english).toContain("Remarks: Hose replaced");
    expect(english).toContain("Signed off by Tom Tech");
    const dutch = pdfToText(await renderInspectionReport({ ...ctxOf(manager), locale: "nl-BE" }, scope));
    expect(dutch).toContain("Inspectierapport");
    expect(dutch).toContain("Afgetekend door Tom Tech");
  });

  it("is not found for another entity's person, a technician out of reach, or a day without tasks", async () => {
    const task = await newTask();
    const scope = { plannedMaintenanceId: planId, from: task.dueDate, to: task.dueDate };
    expect(await rejectionOf(renderInspectionReport(ctxOf(otherManager), scope))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(renderInspectionReport(ctxOf(farTechnician), scope))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(renderInspectionReport(ctxOf(manager), { ...scope, from: "2030-01-01", to: "2030-01-01" }))).toBeInstanceOf(NotFoundError);
  });
});

function pdfToText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inspection-"));
  try {
    fs.writeFileSync(path.join(dir, "report.pdf"), pdf);
    return execFileSync("pdftotext", ["-layout", path.join(dir, "report.pdf"), "-"], { encoding: "utf8" }).replace(/[ \t]+/g, " ");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
