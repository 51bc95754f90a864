import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { Role } from "~/db/enums";
import { apiTokens, type Facility, type User } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { createApiToken } from "~/modules/api-tokens/service.server";
import * as screen from "~/routes/administration.api-tokens";
import { createEntity, createFacility, createUser } from "#tests/factories";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * /administration/api-tokens as the browser posts it (JavaScript off): administrators make a token and
 * get its secret once in the answer (never kept: no-store), a bad form keeps the input and saves nothing,
 * revoking another entity's token is the 404 page; facility managers see the list without the form and
 * may not post; technicians do not reach the page.
 */
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

let api: ApiHarness;
let admin: User;
let manager: User;
let technician: User;
let facility: Facility;
let foreignTokenId: number;

const asAuth = (user: User): AuthUser => ({ id: user.id, entityId: user.entityId, role: user.role, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels" });

async function call(handler: unknown, as: User, body?: Record<string, string | string[]>, search = "") {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body ?? {})) for (const v of ([] as string[]).concat(value)) form.append(key, v);
  const request = new Request(`http://x/administration/api-tokens${search}`, {
    method: body ? "POST" : "GET",
    headers: { "x-language": "en", ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: body ? form.toString() : undefined,
  });
  const context = { ...apiContext(), auth: { user: asAuth(as), session: null } };
  try {
    return await (gated("manager", handler as Handler) as Handler)({ request, params: {}, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    return thrown;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loader and action answers, checked by the assertions
const dataOf = (answer: unknown) => ((answer as { data?: unknown })?.data ?? answer) as any;
const statusOf = (answer: unknown) => (answer as { init?: { status?: number }; status?: number })?.init?.status ?? (answer as { status?: number })?.status;
const locationOf = (answer: unknown) => (answer instanceof Response ? answer.headers.get("location") : null);

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  const entity = await createEntity(db);
  const other = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  manager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  facility = await createFacility(db, { entityId: entity.id, name: "Depot" });
  const otherAdmin = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  const ctx = { db, entityId: other.id, actor: personActor(otherAdmin), locale: "en", timeZone: "Europe/Brussels" };
  foreignTokenId = (await createApiToken(ctx, { name: "Theirs", role: Role.ADMINISTRATOR, facilityIds: [], expiresInDays: 30 })).token.id;
});
afterAll(async () => {
  await api?.close();
});

describe("/administration/api-tokens", () => {
  it("an administrator makes a token: the secret comes once, in an answer nothing keeps", async () => {
    const answer = await call(screen.action, admin, { intent: "create", name: "Helpdesk", role: "2", facilityIds: [String(facility.id)], expiresInDays: "30" });
    const body = dataOf(answer);
    expect(body.created.secret).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
    expect(new Headers((answer as { init?: { headers?: HeadersInit } }).init?.headers).get("cache-control")).toBe("no-store");
    const page = dataOf(await call(screen.loader, admin));
    expect(page.canManage).toBe(true);
    expect(page.tokens.map((t: { name: string }) => t.name)).toContain("Helpdesk");
    expect(JSON.stringify(page)).not.toContain(body.created.secret.slice(3));
  });

  it("keeps a bad form's input, says why, and saves nothing", async () => {
    const before = (await api.database.db.select().from(apiTokens)).length;
    const answer = await call(screen.action, admin, { intent: "create", name: "No reach", role: "2", expiresInDays: "30" });
    expect(statusOf(answer)).toBe(400);
    const { result } = dataOf(answer);
    expect(result.error).toMatchObject({ facilityIds: ["apiTokens:validation.facilityRequired"] });
    expect(result.initialValue).toMatchObject({ name: "No reach" });
    const control = await call(screen.action, admin, { intent: "create", name: "a\u0000b", role: "3", expiresInDays: "30" });
    expect(statusOf(control)).toBe(400);
    expect((await api.database.db.select().from(apiTokens)).length).toBe(before);
  });

  it("revokes after the confirmation page; another entity's token is the 404 page", async () => {
    const made = dataOf(await call(screen.action, admin, { intent: "create", name: "Short-lived", role: "3", expiresInDays: "7" }));
    const confirm = dataOf(await call(screen.loader, admin, undefined, `?revoke=${made.created.id}`));
    expect(confirm.revoking).toMatchObject({ id: made.created.id, name: "Short-lived" });
    const revoked = await call(screen.action, admin, { intent: "revoke", id: String(made.created.id) });
    expect(locationOf(revoked)).toBe("/administration/api-tokens");
    const foreign = await call(screen.action, admin, { intent: "revoke", id: String(foreignTokenId) });
    expect(statusOf(foreign)).toBe(404);
    expect(statusOf(await call(screen.action, admin, { intent: "revoke", id: "abc" }))).toBe(400);
    // Another entity's token is never listed, nor offered for revoking.
    const page = dataOf(await call(screen.loader, admin, undefined, `?revoke=${foreignTokenId}`));
    expect(page.revoking).toBeNull();
    expect(page.tokens.map((t: { id: number }) => t.id)).not.toContain(foreignTokenId);
  });

  it("shows facility managers the list only: posting goes to /forbidden; technicians do not reach the page", async () => {
    const page = dataOf(await call(screen.loader, manager));
    expect(page.canManage).toBe(false);
    expect(page.facilities).toEqual([]);
    expect(page.tokens.length).toBeGreaterThan(0);
    const refused = await call(screen.action, manager, { intent: "create", name: "Mine", role: "2", facilityIds: [String(facility.id)], expiresInDays: "30" });
    expect(locationOf(refused)).toBe("/forbidden");
    expect(locationOf(await call(screen.action, manager, { intent: "revoke", id: "1" }))).toBe("/forbidden");
    expect(locationOf(await call(screen.loader, technician))).toBe("/forbidden");
  });
});
