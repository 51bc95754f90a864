import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { Database } from "~/db/client.server";
import type { User } from "~/db/schema";
import { type AuthDeps, login } from "~/modules/auth/service.server";
import type { FileStore } from "~/modules/files/storage.server";
import type { Runtime } from "~/runtime.server";
import { DEFAULT_PASSWORD } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";

/**
 * Route-level tests of the REST API (app/routes/api): the route modules' loader/action are called
 * directly with a Request. `startApiRuntime` opens a test database and installs it as the process
 * runtime (`runtime()` of app/runtime.server.ts, kept on globalThis), with a temporary file store,
 * no queue and no mailer. Vitest runs each test file in its own worker, so each file gets its own.
 */
export interface ApiHarness {
  database: Database;
  files: FileStore;
  /** A bearer token for `user` (logs in with the factories' default password). */
  token(user: Pick<User, "email">): Promise<string>;
  close(): Promise<void>;
}

const holder = globalThis as unknown as { __caretakerRuntime?: Promise<Runtime> };

export async function startApiRuntime(): Promise<ApiHarness> {
  const database = await createTestDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-api-"));
  const files: FileStore = { root: path.join(dir, "files"), maxBytes: 5 * 1024 * 1024 };
  const auth: AuthDeps = { db: database.db, jwtSecret: "api-test-secret-".padEnd(48, "x"), accessTtlSeconds: 900, refreshTtlDays: 30 };
  const rt = { config: {}, database, queue: null, mailer: null, files, auth } as unknown as Runtime;
  holder.__caretakerRuntime = Promise.resolve(rt);
  return {
    database,
    files,
    async token(user) {
      return (await login(auth, { email: user.email, password: DEFAULT_PASSWORD })).jwtToken;
    },
    async close() {
      holder.__caretakerRuntime = undefined;
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
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
  const response = await handler({ request, params: call.params ?? {}, context: {} } as LoaderFunctionArgs & ActionFunctionArgs);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** A base64 data URL of `bytes`, as the API takes files. */
export function dataUrl(bytes: Uint8Array, mime = "image/png"): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;
}
