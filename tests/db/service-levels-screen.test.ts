import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { Role } from "~/db/enums";
import { serviceLevelClosedDays, serviceLevelOpeningHours, type User } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { addClosedDay } from "~/modules/service-levels/service.server";
import * as screen from "~/routes/administration.service-levels";
import { createEntity, createStaff, createUser } from "#tests/factories";
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

const asAuth = (user: User): AuthUser => ({ id: user.id, entityId: user.entityId, role: user.role, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels" });

async function call(handler: unknown, as: User, body?: Record<string, string>) {
  const request = new Request("http://x/administration/service-levels", {
    method: body ? "POST" : "GET",
    headers: { "x-language": "en", ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: body ? new URLSearchParams(body).toString() : undefined,
  });
  const context = { ...apiContext(), auth: { user: asAuth(as), session: null } };
  try {
    return await (gated("admin", handler as Handler) as Handler)({ request, params: {}, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
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
