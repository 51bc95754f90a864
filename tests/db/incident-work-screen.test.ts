import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { type Incident, materialLines, timeEntries } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import * as incidentView from "~/routes/incident";
import { createBuilding, createEntity, createIncident, createRoom, createUser, linkUserTo } from "#tests/factories";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * The incident view's time and materials forms as the browser posts them (JavaScript off): a refused
 * entry answers 400 with the input kept and the error beside its field, a good one redirects to the
 * section with a toast; deleting someone else's entry is an error toast and deletes nothing.
 */
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

let api: ApiHarness;
let technician: AuthUser;
let colleagueId: number;
let incident: Incident;

const authUser = (u: { id: number; entityId: number; role: number }): AuthUser => ({
  id: u.id,
  entityId: u.entityId,
  role: u.role as Role,
  sessionId: "test",
  expiresAt: Date.now() + 3_600_000,
  timeZone: "Europe/Brussels",
});

async function call(handler: unknown, path: string, body?: Record<string, string>) {
  const request = new Request(`http://x${path}`, {
    method: body ? "POST" : "GET",
    headers: { "x-language": "en", ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: body ? new URLSearchParams(body).toString() : undefined,
  });
  const context = { ...apiContext(), auth: { user: technician, session: null } };
  try {
    return await (gated("user", handler as Handler) as Handler)({ request, params: { id: String(incident.id) }, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    return thrown;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loader and action answers, checked by the assertions
const dataOf = (answer: unknown) => ((answer as { data?: unknown })?.data ?? answer) as any;
const path = () => `/incident/${incident.id}`;

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db);
  const tech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Tom", surname: "Tech" });
  const colleague = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN, name: "Cleo", surname: "Colleague" });
  const building = await createBuilding(db, { entityId: entity.id });
  const room = await createRoom(db, { entityId: entity.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: tech.id, buildingId: building.id });
  await linkUserTo(db, { entityId: entity.id, userId: colleague.id, buildingId: building.id });
  incident = await createIncident(db, { entityId: entity.id, roomId: room.id });
  technician = authUser(tech);
  colleagueId = colleague.id;
});
afterAll(async () => {
  await api?.close();
});

describe("/incident/{id}, time and materials", () => {
  it("answers a duration of nothing with 400, the error beside Minutes and the input kept", async () => {
    const answer = await call(incidentView.action, path(), { intent: "recordTime", workedOn: "2026-03-02", hours: "0", minutes: "0", note: "Looked at it" });
    expect((answer as { init?: { status?: number } }).init?.status).toBe(400);
    const data = dataOf(answer);
    expect(data.intent).toBe("recordTime");
    expect(data.result.error.minutes).toEqual(["timeCosts:validation.duration"]);
    expect(data.result.initialValue).toMatchObject({ workedOn: "2026-03-02", note: "Looked at it" });
    expect(await api.database.db.select().from(timeEntries).where(eq(timeEntries.incidentId, incident.id))).toEqual([]);
  });

  it("records time and material, then redirects to the section with a toast; the page shows the totals", async () => {
    const time = await call(incidentView.action, path(), { intent: "recordTime", workedOn: "2026-03-02", hours: "1", minutes: "20", note: "" });
    expect(time).toBeInstanceOf(Response);
    expect((time as Response).headers.get("location")).toBe(`${path()}#time-and-materials`);
    expect((time as Response).headers.get("set-cookie")).toBeTruthy();
    const material = await call(incidentView.action, path(), { intent: "addMaterial", description: "Copper pipe", quantity: "2,5", unitCost: "12,40" });
    expect((material as Response).headers.get("location")).toBe(`${path()}#time-and-materials`);
    const page = dataOf(await call(incidentView.loader, path()));
    expect(page.work.totals).toEqual({ minutes: 80, labour: "0.00", materials: "31.00", total: "31.00", unpricedEntries: 1, entries: 1, lines: 1 });
    expect(page.work.canRecord).toBe(true);
    expect(page.work.people).toEqual([]);
    expect(page.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("corrects one's own entry and material line from their forms", async () => {
    const [entry] = await api.database.db.select().from(timeEntries).where(eq(timeEntries.incidentId, incident.id));
    const answer = await call(incidentView.action, `${path()}?editEntry=${entry.id}`, { intent: "updateTime", entry: String(entry.id), workedOn: "2026-03-01", hours: "2", minutes: "5", note: "Two visits" });
    expect((answer as Response).headers.get("location")).toBe(`${path()}#time-and-materials`);
    const [after] = await api.database.db.select().from(timeEntries).where(eq(timeEntries.id, entry.id));
    expect([after.workedOn, after.minutes, after.note, after.userId]).toEqual(["2026-03-01", 125, "Two visits", technician.id]);
    const [line] = await api.database.db.select().from(materialLines).where(eq(materialLines.incidentId, incident.id));
    const refused = await call(incidentView.action, path(), { intent: "updateMaterial", line: String(line.id), description: "Copper pipe", quantity: "0", unitCost: "12,40" });
    expect((refused as { init?: { status?: number } }).init?.status).toBe(400);
    expect(dataOf(refused).result.error.quantity).toEqual(["timeCosts:validation.quantity"]);
    await call(incidentView.action, path(), { intent: "updateMaterial", line: String(line.id), description: "Copper pipe", quantity: "3", unitCost: "12,40" });
    expect(dataOf(await call(incidentView.loader, path())).work.totals).toEqual({ minutes: 125, labour: "0.00", materials: "37.20", total: "37.20", unpricedEntries: 1, entries: 1, lines: 1 });
  });

  it("refuses deleting a colleague's entry with an error toast, and deletes nothing; one's own material goes", async () => {
    const [{ id }] = await api.database.db
      .insert(timeEntries)
      .values({ entityId: technician.entityId, incidentId: incident.id, userId: colleagueId, workedOn: "2026-03-02", minutes: 120, createdById: colleagueId })
      .returning({ id: timeEntries.id });
    const answer = await call(incidentView.action, path(), { intent: "deleteTime", entry: String(id) });
    expect((answer as Response).headers.get("location")).toBe(`${path()}#time-and-materials`);
    expect(await api.database.db.select({ id: timeEntries.id }).from(timeEntries).where(eq(timeEntries.id, id))).toEqual([{ id }]);
    const [line] = await api.database.db.select().from(materialLines).where(eq(materialLines.incidentId, incident.id));
    await call(incidentView.action, path(), { intent: "deleteMaterial", line: String(line.id) });
    expect(await api.database.db.select().from(materialLines).where(eq(materialLines.incidentId, incident.id))).toEqual([]);
  });
});
