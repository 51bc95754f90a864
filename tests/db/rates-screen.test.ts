import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import { entities, type User, users } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import * as screen from "~/routes/administration.rates";
import { createEntity, createStaff, createUser } from "#tests/factories";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * /administration/rates as the browser posts it with JavaScript off: the form is answered with a
 * redirect, or with status 400 and its input kept, nothing saved (a bad rate, another entity's person).
 * Facility managers and technicians do not reach the page.
 */
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

let api: ApiHarness;
let admin: User;
let manager: User;
let technician: User;
let stranger: User;

const asAuth = (user: User): AuthUser => ({ id: user.id, entityId: user.entityId, role: user.role, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels" });

async function call(handler: unknown, as: User, body?: Record<string, string>) {
  const request = new Request("http://x/administration/rates", {
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
const stored = async () => {
  const db = api.database.db;
  const [entity] = await db.select({ currency: entities.currency, rate: entities.defaultHourlyRate }).from(entities).where(eq(entities.id, admin.entityId));
  const [tech] = await db.select({ rate: users.hourlyRate }).from(users).where(eq(users.id, technician.id));
  const [far] = await db.select({ rate: users.hourlyRate }).from(users).where(eq(users.id, stranger.id));
  return { currency: entity.currency, defaultRate: entity.rate, technician: tech.rate, stranger: far.rate };
};

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db);
  const other = await createEntity(db);
  ({ admin, manager, technician } = await createStaff(db, entity.id, { technician: { name: "Tom", surname: "Tech" } }));
  stranger = await createUser(db, { entityId: other.id, role: Role.TECHNICIAN });
});
afterAll(async () => {
  await api?.close();
});

describe("/administration/rates", () => {
  it("shows the currency, the default and the people, then saves the form", async () => {
    const page = dataOf(await call(screen.loader, admin));
    expect(page.rates.currency).toBe("EUR");
    expect(page.rates.defaultRate).toBeNull();
    expect(page.rates.people.map((p: { id: number }) => p.id)).toContain(technician.id);
    const answer = await call(screen.action, admin, { intent: "rates", currency: "GBP", defaultRate: "32,50", "rates[0].userId": String(technician.id), "rates[0].rate": "41" });
    expect(statusOf(answer)).toBe(302);
    expect(locationOf(answer)).toBe("/administration/rates");
    expect(await stored()).toEqual({ currency: "GBP", defaultRate: "32.50", technician: "41.00", stranger: null });
    const again = dataOf(await call(screen.loader, admin));
    expect(again.rates.currency).toBe("GBP");
    expect(again.rates.people.find((p: { id: number }) => p.id === technician.id).rate).toBe("41.00");
  });

  it("keeps a refused form's input and says why beside the field, saving nothing", async () => {
    const answer = await call(screen.action, admin, { intent: "rates", currency: "GBP", defaultRate: "abc", "rates[0].userId": String(technician.id), "rates[0].rate": "12" });
    expect(statusOf(answer)).toBe(400);
    const body = dataOf(answer);
    expect(body.intent).toBe("rates");
    expect(body.result.error.defaultRate).toEqual(["timeCosts:validation.rate"]);
    expect(body.result.initialValue.defaultRate).toBe("abc");
    expect(await stored()).toEqual({ currency: "GBP", defaultRate: "32.50", technician: "41.00", stranger: null });
  });

  it("refuses another entity's person, saving nothing", async () => {
    const answer = await call(screen.action, admin, { intent: "rates", currency: "EUR", defaultRate: "", "rates[0].userId": String(stranger.id), "rates[0].rate": "99" });
    expect(statusOf(answer)).toBe(400);
    expect(dataOf(answer).result.error.rates).toEqual(["timeCosts:validation.ratePerson"]);
    expect(await stored()).toEqual({ currency: "GBP", defaultRate: "32.50", technician: "41.00", stranger: null });
  });

  it("is not for facility managers nor technicians", async () => {
    for (const user of [manager, technician]) {
      expect(locationOf(await call(screen.loader, user))).toBe("/forbidden");
      expect(locationOf(await call(screen.action, user, { intent: "rates", currency: "USD", defaultRate: "1" }))).toBe("/forbidden");
    }
    expect(await stored()).toEqual({ currency: "GBP", defaultRate: "32.50", technician: "41.00", stranger: null });
  });
});
