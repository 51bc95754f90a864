import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { Role } from "~/db/enums";
import { serviceLevelClosedDays, serviceLevelOpeningHours, serviceLevelTargets, type User } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { addClosedDay } from "~/modules/service-levels/service.server";
import * as screen from "~/routes/administration.service-levels";
import * as typeScreen from "~/routes/administration.service-levels.incident-types.$id";
import { createEntity, createIncidentType, createStaff, createUser } from "#tests/factories";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * /administration/service-levels as the browser posts it with JavaScript off: each form posts its intent
 * and is answered with a redirect (and a toast), or with status 400, its input kept and its errors beside
 * the fields, nothing saved. Removing another entity's closed day changes nothing. Facility managers and
 * technicians do not reach the page.
 */
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

let api: ApiHarness;
let admin: User;
let manager: User;
let technician: User;
let foreignDayId: number;
let typeId: number;
let foreignTypeId: number;

const asAuth = (user: User): AuthUser => ({ id: user.id, entityId: user.entityId, role: user.role, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels" });

async function call(handler: unknown, as: User, body?: Record<string, string>, { path = "/administration/service-levels", params = {} }: { path?: string; params?: Record<string, string> } = {}) {
  const request = new Request(`http://x${path}`, {
    method: body ? "POST" : "GET",
    headers: { "x-language": "en", ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: body ? new URLSearchParams(body).toString() : undefined,
  });
  const context = { ...apiContext(), auth: { user: asAuth(as), session: null } };
  try {
    return await (gated("admin", handler as Handler) as Handler)({ request, params, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    return thrown;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loader and action answers, checked by the assertions
const dataOf = (answer: unknown) => ((answer as { data?: unknown })?.data ?? answer) as any;
const statusOf = (answer: unknown) => (answer as { init?: { status?: number }; status?: number })?.init?.status ?? (answer as { status?: number })?.status;
const locationOf = (answer: unknown) => (answer instanceof Response ? answer.headers.get("location") : null);

const WEEK = {
  intent: "week",
  "monday.open": "on",
  "monday.opens": "08:00",
  "monday.closes": "17:00",
  "tuesday.open": "on",
  "tuesday.opens": "08:00",
  "tuesday.closes": "17:00",
};

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db);
  const other = await createEntity(db);
  ({ admin, manager, technician } = await createStaff(db, entity.id));
  const otherAdmin = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  const ctx = { db, entityId: other.id, actor: personActor(otherAdmin), locale: "en", timeZone: "Europe/Brussels" };
  foreignDayId = (await addClosedDay(ctx, { day: "2027-01-01", name: "Theirs" })).id;
  typeId = (await createIncidentType(db, { entityId: entity.id, nameEn: "Heating" })).id;
  foreignTypeId = (await createIncidentType(db, { entityId: other.id, nameEn: "Their heating" })).id;
});
afterAll(async () => {
  await api?.close();
});

describe("/administration/service-levels", () => {
  it("saves the working week, then shows it", async () => {
    const answer = await call(screen.action, admin, WEEK);
    expect(statusOf(answer)).toBe(302);
    expect(locationOf(answer)).toBe("/administration/service-levels");
    const page = dataOf(await call(screen.loader, admin));
    expect(page.settings.week[1]).toEqual([{ opens: 480, closes: 1020 }]);
    expect(page.settings.week[3]).toEqual([]);
    expect(page.holidayLanguage).toBe("en");
  });

  it("keeps a refused form's input and says why beside the field, saving nothing", async () => {
    const before = await api.database.db.select().from(serviceLevelOpeningHours).where(eq(serviceLevelOpeningHours.entityId, admin.entityId));
    const answer = await call(screen.action, admin, { ...WEEK, "monday.closes": "07:00" });
    expect(statusOf(answer)).toBe(400);
    const body = dataOf(answer);
    expect(body.intent).toBe("week");
    expect(body.result.error["monday.closes"]).toEqual(["serviceLevels:validation.closesAfterOpens"]);
    expect(body.result.initialValue.monday.closes).toBe("07:00");
    expect(await api.database.db.select().from(serviceLevelOpeningHours).where(eq(serviceLevelOpeningHours.entityId, admin.entityId))).toEqual(before);

    const taken = await call(screen.action, admin, { intent: "addClosedDay", day: "2027-05-01", name: "Labour Day" });
    expect(statusOf(taken)).toBe(302);
    const again = dataOf(await call(screen.action, admin, { intent: "addClosedDay", day: "2027-05-01", name: "Again" }));
    expect(again.result.error.day).toEqual(["serviceLevels:validation.dayTaken"]);
  });

  it("adds Belgium's public holidays and the targets, and removes a closed day", async () => {
    expect(locationOf(await call(screen.action, admin, { intent: "holidays", year: "2027", language: "fr" }))).toBe("/administration/service-levels");
    expect(locationOf(await call(screen.action, admin, { intent: "targets", "critical.responseHours": "1", "critical.responseClock": "calendar" }))).toBe("/administration/service-levels");
    expect(locationOf(await call(screen.action, admin, { intent: "warning", warnBeforeMinutes: "45" }))).toBe("/administration/service-levels");
    const page = dataOf(await call(screen.loader, admin));
    expect(page.settings.closedDays).toHaveLength(10);
    expect(page.settings.targets.critical).toEqual({ responseMinutes: 60, responseClock: "calendar", resolutionMinutes: null, resolutionClock: "working" });
    expect(page.settings.warnBeforeMinutes).toBe(45);
    const labourDay = page.settings.closedDays.find((d: { day: string }) => d.day === "2027-05-01");
    expect(labourDay.name).toBe("Labour Day");
    expect(locationOf(await call(screen.action, admin, { intent: "removeClosedDay", closedDayId: String(labourDay.id) }))).toBe("/administration/service-levels");
    expect(dataOf(await call(screen.loader, admin)).settings.closedDays).toHaveLength(9);
  });

  it("leaves another entity's closed day alone", async () => {
    const answer = await call(screen.action, admin, { intent: "removeClosedDay", closedDayId: String(foreignDayId) });
    expect(locationOf(answer)).toBe("/administration/service-levels");
    expect(await api.database.db.select().from(serviceLevelClosedDays).where(eq(serviceLevelClosedDays.id, foreignDayId))).toHaveLength(1);
  });

  it("is not for facility managers nor technicians", async () => {
    for (const user of [manager, technician]) {
      expect(locationOf(await call(screen.loader, user))).toBe("/forbidden");
      expect(locationOf(await call(screen.action, user, WEEK))).toBe("/forbidden");
    }
  });
});

describe("/administration/service-levels/incident-types/{id}", () => {
  const here = (id: number) => `/administration/service-levels/incident-types/${id}`;
  const onType = (handler: unknown, as: User, id: number, body?: Record<string, string>) => call(handler, as, body, { path: here(id), params: { id: String(id) } });

  it("is chosen on the settings screen with a GET form (?type=), which opens the type's screen", async () => {
    const answer = await call(screen.loader, admin, undefined, { path: `/administration/service-levels?type=${typeId}` });
    expect(statusOf(answer)).toBe(302);
    expect(locationOf(answer)).toBe(here(typeId));
    const page = dataOf(await call(screen.loader, admin));
    expect(page.types.map((t: { name: string }) => t.name)).toContain("Heating");
    expect(page.overrides).toEqual([]);
  });

  it("saves the type's own targets, shows them beside the entity's, and removes them", async () => {
    const first = dataOf(await onType(typeScreen.loader, admin, typeId));
    expect(first.type).toMatchObject({ id: typeId, name: "Heating", overrides: false });
    // The entity's Critical response saved by the settings screen's test above: 1 h, calendar.
    expect(first.type.entity.critical).toEqual({ responseMinutes: 60, responseClock: "calendar", resolutionMinutes: null, resolutionClock: "working" });

    const saved = await onType(typeScreen.action, admin, typeId, { intent: "targets", "critical.responseHours": "0.25", "critical.responseClock": "working", "low.resolutionHours": "48", "low.resolutionClock": "calendar" });
    expect(statusOf(saved)).toBe(302);
    expect(locationOf(saved)).toBe(here(typeId));
    const page = dataOf(await onType(typeScreen.loader, admin, typeId));
    expect(page.type.overrides).toBe(true);
    expect(page.type.override.critical).toEqual({ responseMinutes: 15, responseClock: "working", resolutionMinutes: null, resolutionClock: "working" });
    expect(page.type.override.low).toEqual({ responseMinutes: null, responseClock: "working", resolutionMinutes: 2880, resolutionClock: "calendar" });
    expect(dataOf(await call(screen.loader, admin)).overrides).toEqual([{ id: typeId, name: "Heating", priorities: 2 }]);

    const refused = await onType(typeScreen.action, admin, typeId, { intent: "targets", "critical.responseHours": "soon" });
    expect(statusOf(refused)).toBe(400);
    expect(dataOf(refused).intent).toBe("targets");
    expect(dataOf(refused).result.error["critical.responseHours"]).toEqual(["serviceLevels:validation.hours"]);
    expect(dataOf(await onType(typeScreen.loader, admin, typeId)).type.override.critical.responseMinutes).toBe(15);

    const cleared = await onType(typeScreen.action, admin, typeId, { intent: "clearOverride" });
    expect(locationOf(cleared)).toBe(here(typeId));
    expect(dataOf(await onType(typeScreen.loader, admin, typeId)).type.overrides).toBe(false);
    expect(dataOf(await call(screen.loader, admin)).overrides).toEqual([]);
  });

  it("is the not-found page for another entity's incident type, changing nothing", async () => {
    expect(statusOf(await onType(typeScreen.loader, admin, foreignTypeId))).toBe(404);
    expect(statusOf(await onType(typeScreen.action, admin, foreignTypeId, { intent: "targets", "low.responseHours": "1" }))).toBe(404);
    expect(statusOf(await onType(typeScreen.action, admin, foreignTypeId, { intent: "clearOverride" }))).toBe(404);
    expect(await api.database.db.select().from(serviceLevelTargets).where(eq(serviceLevelTargets.incidentTypeId, foreignTypeId))).toEqual([]);
  });

  it("is not for facility managers nor technicians", async () => {
    for (const user of [manager, technician]) {
      expect(locationOf(await onType(typeScreen.loader, user, typeId))).toBe("/forbidden");
      expect(locationOf(await onType(typeScreen.action, user, typeId, { intent: "targets", "low.responseHours": "1" }))).toBe("/forbidden");
    }
    expect(await api.database.db.select().from(serviceLevelTargets).where(eq(serviceLevelTargets.incidentTypeId, typeId))).toEqual([]);
  });
});
