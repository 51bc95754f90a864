import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personActor } from "~/core/actor";
import { Role } from "~/db/enums";
import type { User } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import { issueCalendarToken } from "~/modules/users/calendar-token.server";
import * as tokensScreen from "~/routes/administration.api-tokens";
import * as webhooksScreen from "~/routes/administration.webhooks";
import * as webhookScreen from "~/routes/administration.webhooks.$id";
import * as calendarRoute from "~/routes/resources/calendar.$file";
import { createEntity, createUser } from "#tests/factories";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * Issue 60 item 10: an answer that shows a secret (a new API token, a webhook's secret on create and on
 * rotation) is `Cache-Control: no-store` on the page and on its `.data` answer, and the calendar feed's
 * caching and referrer policy reach `/calendar/{token}.ics.data`. Remix builds both answers' headers
 * from the route's `headers` export; a route without one keeps only its answers' cookies.
 */
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;
interface Module {
  headers?: HeadersFunction;
}

let api: ApiHarness;
let admin: User;

const asAuth = (user: User): AuthUser => ({ id: user.id, entityId: user.entityId, role: user.role, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels" });

async function post(handler: unknown, path: string, body: Record<string, string | string[]>, params: Record<string, string> = {}) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) for (const v of ([] as string[]).concat(value)) form.append(key, v);
  const request = new Request(`http://x${path}`, { method: "POST", headers: { "x-language": "en", "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
  const context = { ...apiContext(), auth: { user: asAuth(admin), session: null } };
  return (gated("manager", handler as Handler) as Handler)({ request, params, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
}

/** The headers Remix answers with for a leaf route (the page and its `.data` alike). */
function answered(module: Module, own: { loader?: HeadersInit; action?: HeadersInit }): Headers {
  const loaderHeaders = new Headers(own.loader);
  const actionHeaders = new Headers(own.action);
  if (!module.headers) return new Headers();
  return new Headers(module.headers({ loaderHeaders, actionHeaders, parentHeaders: new Headers(), errorHeaders: undefined }));
}
const initHeaders = (answer: unknown) => (answer as { init?: { headers?: HeadersInit } }).init?.headers;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- action answers, checked by the assertions
const dataOf = (answer: unknown) => ((answer as { data?: unknown })?.data ?? answer) as any;

beforeAll(async () => {
  api = await startApiRuntime();
  const entity = await createEntity(api.database.db);
  admin = await createUser(api.database.db, { entityId: entity.id, role: Role.ADMINISTRATOR });
});
afterAll(async () => {
  await api?.close();
});

describe("answers that show a secret", () => {
  it("a new API token: no-store", async () => {
    const answer = await post(tokensScreen.action, "/administration/api-tokens", { intent: "create", name: "Helpdesk", role: "3", expiresInDays: "30" });
    expect(dataOf(answer).created.secret).toMatch(/^ct_/);
    expect(answered(tokensScreen, { action: initHeaders(answer) }).get("cache-control")).toBe("no-store");
  });

  it("a webhook's secret on create and on rotation: no-store", async () => {
    const created = await post(webhooksScreen.action, "/administration/webhooks", { intent: "create", name: "Ticketing", url: "https://93.184.216.34/in", events: ["task.done"] });
    const id = dataOf(created).id as number;
    expect(dataOf(created).secret).toBeTruthy();
    expect(answered(webhooksScreen, { action: initHeaders(created) }).get("cache-control")).toBe("no-store");
    const rotated = await post(webhookScreen.action, `/administration/webhooks/${id}`, { intent: "rotate" }, { id: String(id) });
    expect(dataOf(rotated).secret).toBeTruthy();
    expect(answered(webhookScreen, { action: initHeaders(rotated) }).get("cache-control")).toBe("no-store");
  });

  it("the calendar feed keeps its caching and referrer policy", async () => {
    const ctx = { db: api.database.db, entityId: admin.entityId, actor: personActor(admin), locale: "en", timeZone: "Europe/Brussels" };
    const token = await issueCalendarToken(ctx, { reset: false });
    const response = (await calendarRoute.loader({
      request: new Request(`http://x/calendar/${token}.ics`),
      params: { file: `${token}.ics` },
      context: apiContext(),
    } as unknown as LoaderFunctionArgs)) as Response;
    expect(response.status).toBe(200);
    const headers = answered(calendarRoute, { loader: response.headers });
    expect(headers.get("cache-control")).toBe("private, max-age=300");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
  });
});
