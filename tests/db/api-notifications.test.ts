import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotificationType, Role } from "~/db/enums";
import { type Entity, notifications, type User } from "~/db/schema";
import * as countRoute from "~/routes/api/users.$id.notifications.count";
import * as readRoute from "~/routes/api/users.$id.notifications.read";
import * as listRoute from "~/routes/api/users.$id.notifications";
import { createEntity, createNotification, createUser } from "#tests/factories";
import { type ApiHarness, apiContext, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * The notification calls of SPEC.md section 7 through the route modules with a bearer token: count
 * (total and unread), list (showOnlyUnread, notificationDetailsIds, newest first), PATCH read answering
 * responseCode 0; another user's id 403, another entity's 404, bad parameters 400.
 */
let api: ApiHarness;
let entity: Entity;
let other: Entity;
let tech: User;
let colleague: User;
let stranger: User;
let techToken: string;
let colleagueToken: string;
let strangerToken: string;
let detailIds: number[];

const at = (id: number | string, tail = "") => ({ url: `/api/users/${id}/notifications${tail}`, params: { id: String(id) } });

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entity = await createEntity(db);
  other = await createEntity(db);
  tech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  colleague = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
  stranger = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  detailIds = [];
  for (let i = 0; i < 3; i++) {
    const n = await createNotification(db, { entityId: entity.id, userIds: [tech.id], subject: `n${i}`, createdAt: new Date(Date.now() - (3 - i) * 1000), readAt: i === 0 ? new Date() : null });
    detailIds.push(n.details.id);
  }
  [techToken, colleagueToken, strangerToken] = await Promise.all([tech, colleague, stranger].map((u) => api.token(u)));
});

afterAll(async () => {
  await api?.close();
});

describe("/api/users/{id}/notifications", () => {
  it("counts total and unread", async () => {
    const { url, params } = at(tech.id, "/count");
    const answer = await callApi(countRoute, url, { token: techToken, params });
    expect(answer).toMatchObject({ status: 200, body: { total: 3, unread: 2 } });
  });

  it("lists newest first, only unread, or chosen details", async () => {
    const all = await callApi(listRoute, at(tech.id).url, { token: techToken, params: at(tech.id).params });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("3");
    expect(all.body.map((n: { subject: string }) => n.subject)).toEqual(["n2", "n1", "n0"]);
    expect(all.body[0]).toMatchObject({ notificationDetailsId: detailIds[2], read: false, creationDate: expect.any(String), message: {} });
    const unread = await callApi(listRoute, at(tech.id, "?showOnlyUnread=true").url, { token: techToken, params: at(tech.id).params });
    expect(unread.body.map((n: { subject: string }) => n.subject)).toEqual(["n2", "n1"]);
    const chosen = await callApi(listRoute, at(tech.id, `?notificationDetailsIds=${detailIds[0]},${detailIds[2]}`).url, { token: techToken, params: at(tech.id).params });
    expect(chosen.body.map((n: { notificationDetailsId: number }) => n.notificationDetailsId)).toEqual([detailIds[2], detailIds[0]]);
    for (const bad of ["?showOnlyUnread=maybe", "?notificationDetailsIds=x", "?size=1000"]) {
      expect((await callApi(listRoute, at(tech.id, bad).url, { token: techToken, params: at(tech.id).params })).status).toBe(400);
    }
  });

  it("marks read with a list of detail ids, answering responseCode 0, one way", async () => {
    const { url, params } = at(tech.id, "/read");
    const answer = await callApi(readRoute, url, { method: "PATCH", token: techToken, params, body: [detailIds[1]] });
    expect(answer).toMatchObject({ status: 200, body: { responseCode: 0 } });
    const again = await callApi(readRoute, url, { method: "PATCH", token: techToken, params, body: { notificationDetailsIds: [detailIds[1], detailIds[0]] } });
    expect(again.body).toEqual({ responseCode: 0 });
    const count = await callApi(countRoute, at(tech.id, "/count").url, { token: techToken, params });
    expect(count.body).toEqual({ total: 3, unread: 1 });
    expect((await callApi(readRoute, url, { method: "PATCH", token: techToken, params, body: [] })).status).toBe(400);
    expect((await callApi(readRoute, url, { method: "PATCH", token: techToken, params, body: ["x"] })).status).toBe(400);
    expect((await callApi(readRoute, url, { method: "POST", token: techToken, params, body: [1] })).status).toBe(405);
  });

  it("refuses another user's notifications (403) and another entity's (404), without a token 401", async () => {
    for (const [route, tail, method, body] of [
      [countRoute, "/count", "GET", undefined],
      [listRoute, "", "GET", undefined],
      [readRoute, "/read", "PATCH", [detailIds[2]]],
    ] as const) {
      const { url, params } = at(tech.id, tail);
      const call = { method, params, body };
      expect((await callApi(route, url, { ...call, token: colleagueToken })).status).toBe(403);
      expect((await callApi(route, url, { ...call, token: strangerToken })).status).toBe(404);
      expect((await callApi(route, url, { ...call, token: null })).status).toBe(401);
      expect((await callApi(route, at("abc", tail).url, { ...call, params: { id: "abc" }, token: techToken })).status).toBe(404);
    }
    const [row] = await api.database.db.select({ readAt: notifications.readAt }).from(notifications).where(eq(notifications.detailsId, detailIds[2]));
    expect(row.readAt).toBeNull();
  });

  it("answers an import's or an export's subject as its title, in the reader's language", async () => {
    const db = api.database.db;
    const reader = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    await createNotification(db, { entityId: entity.id, userIds: [reader.id], type: NotificationType.IMPORT_FACILITIES_SUCCESS, subject: "import 8", message: { importType: 0, rows: 2, dataJobId: 8 }, createdAt: new Date(Date.now() - 1000) });
    await createNotification(db, { entityId: entity.id, userIds: [reader.id], type: NotificationType.EXPORT_EQUIPMENT_CATEGORIES_SUCCESS, subject: "equipment-categories", message: { rows: 3 } });
    const token = await api.token(reader);
    const subjects = async (language: string) => {
      const request = new Request(`http://x/api/users/${reader.id}/notifications`, { headers: { authorization: `Bearer ${token}`, "x-language": language } });
      const response = await (listRoute.loader as (args: unknown) => Promise<Response>)({ request, params: { id: String(reader.id) }, context: apiContext() });
      return ((await response.json()) as { subject: string }[]).map((n) => n.subject);
    };
    expect(await subjects("en")).toEqual(["Equipment categories export ready", "Facilities import succeeded"]);
    expect(await subjects("fr-BE")).toEqual(["Export des catégories d'équipements prêt", "Import des sites réussi"]);
    expect(await subjects("nl-BE")).toEqual(["Export van uitrustingscategorieën klaar", "Import van sites geslaagd"]);
  });
});
