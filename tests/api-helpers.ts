import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { Database } from "~/db/client.server";
import type { User } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { MailPayload } from "~/mail/jobs.server";
import { type AuthDeps, type AuthUser, login } from "~/modules/auth/service.server";
import type { FileStore } from "~/modules/files/storage.server";
import type { Runtime } from "~/runtime.server";
import { DEFAULT_PASSWORD } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices } from "#tests/test-context";

/**
 * Route-level tests of the REST API (app/routes/api): the route modules' loader/action are called
 * directly with a Request and a load context holding a runtime built on a test database (a temporary
 * file store, a real queue without workers). Vitest runs each test file in its own worker.
 */
export interface ApiHarness {
  database: Database;
  files: FileStore;
  /** A bearer token for `user` (logs in with the factories' default password). */
  token(user: Pick<User, "email">): Promise<string>;
  /** The mails queued so far (send-email jobs in the queue table), oldest first. */
  mails(): Promise<MailPayload[]>;
  close(): Promise<void>;
}

/** The runtime the API routes of this test file see through their load context. */
let current: Runtime | null = null;

export async function startApiRuntime(): Promise<ApiHarness> {
  const database = await createTestDatabase();
  const services = await createTestServices(database);
  const files: FileStore = { ...services.files, maxBytes: 5 * 1024 * 1024 };
  const auth: AuthDeps = { db: database.db, jwtSecret: "api-test-secret-".padEnd(48, "x"), accessTtlSeconds: 900, refreshTtlDays: 30 };
  const base = services.ctx(0, null);
  current = {
    // The API's per-caller limits (decision 056) out of the way of files making thousands of calls;
    // tests/db/api-tokens.test.ts lowers them to see them work.
    config: { API_RATE_LIMIT_PER_PERSON: 1_000_000, API_RATE_LIMIT_PER_TOKEN: 1_000_000, RATE_LIMIT_MULTIPLIER: 1000 },
    database,
    queue: services.queue,
    mailer: null,
    files,
    events: services.events,
    auth,
    services: { db: base.db, files, queue: base.queue, events: base.events },
  } as unknown as Runtime;
  return {
    database,
    files,
    async token(user) {
      return (await login(auth, { email: user.email, password: DEFAULT_PASSWORD })).jwtToken;
    },
    mails: () => services.mails(),
    async close() {
      current = null;
      await services.close();
      await database.close();
    },
  };
}

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<Response> | Response;
export interface RouteModule {
  loader?: unknown;
  action?: unknown;
}

export interface ApiCall {
  method?: string;
  token?: string | null;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  params?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, checked by the tests' assertions
export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the module's loader (GET/HEAD) or action (other methods) like Remix would. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, checked by the tests' assertions
export async function callApi<T = any>(route: RouteModule, url: string, call: ApiCall = {}): Promise<ApiAnswer<T>> {
  const method = call.method ?? "GET";
  const headers = new Headers({ "x-language": "en" });
  if (call.token) headers.set("authorization", `Bearer ${call.token}`);
  let body: string | undefined;
  if (call.body !== undefined) {
    body = typeof call.body === "string" ? call.body : JSON.stringify(call.body);
    headers.set("content-type", "application/json");
  }
  const request = new Request(`http://x${url}`, { method, headers, body });
  const handler = (method === "GET" || method === "HEAD" ? route.loader : route.action) as Handler | undefined;
  if (!handler) throw new Error(`the route has no ${method === "GET" ? "loader" : "action"}`);
  const context = apiContext();
  const response = await handler({ request, params: call.params ?? {}, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** The load context an API route of this test file gets (the harness's runtime). */
export function apiContext() {
  return { runtime: current, requestId: "api-test", clientAddress: "127.0.0.1" };
}

/** A base64 data URL of `bytes`, as the API takes files. */
export function dataUrl(bytes: Uint8Array, mime = "image/png"): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;
}

/**
 * Calls a screen's loader (no body) or action (a form, `FormData` for a multipart post) as the signed-in
 * `user`, behind the access gate as on the server; a thrown answer (a redirect, the 404 page) is returned.
 */
export async function callScreen(
  handler: unknown,
  options: { access: Parameters<typeof gated>[0]; url: string; user: Pick<AuthUser, "id" | "entityId" | "role">; params?: Record<string, string>; body?: Record<string, string> | FormData },
): Promise<unknown> {
  const { body } = options;
  const form = body && !(body instanceof FormData);
  const request = new Request(`http://x${options.url}`, {
    method: body ? "POST" : "GET",
    headers: { "x-language": "en", ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(body).toString() : body,
  });
  const auth: AuthUser = { ...options.user, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels" };
  const context = { ...apiContext(), auth: { user: auth, session: null } };
  try {
    return await (gated(options.access, handler as Handler) as Handler)({ request, params: options.params ?? {}, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    return thrown;
  }
}

/** A screen answer's data (a `data()` answer's, or the value itself), its status and its redirect. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- loader and action answers, checked by the assertions
export const screenData = (answer: unknown) => ((answer as { data?: unknown })?.data ?? answer) as any;
export const screenStatus = (answer: unknown) => (answer as { init?: { status?: number }; status?: number })?.init?.status ?? (answer as { status?: number })?.status;
export const screenLocation = (answer: unknown) => (answer instanceof Response ? answer.headers.get("location") : null);
