import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiContext } from "#tests/api-helpers";

/**
 * One REST call of the API tests that compare callers or throw hostile input at every route: a Request
 * as a client sends it (a bearer token, `x-language: en`, a JSON, raw or multipart body) handed to a
 * route module's loader or action (or a gated one) like Remix would, with the harness's load context.
 * A thrown Response or `data()` counts as the answer, as Remix would send it; any other thrown error is
 * thrown on (a test that wants it names it).
 */
export interface RestCall {
  method: string;
  /** The path and query, e.g. `/api/incidents/7/status`. */
  url: string;
  params?: Record<string, string>;
  /** The bearer token: a session's access token or an API token's secret. */
  bearer?: string | null;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, labelled JSON (for bodies that are not). */
  raw?: string;
  /** A multipart body (uploads, imports). */
  form?: FormData;
  /** Replaces the load context's fields (e.g. `auth` for a gated handler). */
  context?: Record<string, unknown>;
}

export interface RestAnswer {
  status: number;
  /** The body as text when it is JSON, else "". */
  text: string;
}

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => unknown;
type DataLike = { init?: { status?: number } | null; data?: unknown };

async function answerOf(value: unknown): Promise<RestAnswer> {
  if (value instanceof Response) {
    if (value.headers.get("content-type")?.includes("json")) return { status: value.status, text: await value.text() };
    await value.arrayBuffer();
    return { status: value.status, text: "" };
  }
  const data = value as DataLike | null;
  return { status: data?.init?.status ?? 200, text: data?.data === undefined ? "" : JSON.stringify(data.data) };
}

export async function rest(handler: unknown, call: RestCall): Promise<RestAnswer> {
  const headers = new Headers({ "x-language": "en" });
  if (call.bearer) headers.set("authorization", `Bearer ${call.bearer}`);
  let body: BodyInit | undefined;
  if (call.form) body = call.form;
  else if (call.raw !== undefined || call.json !== undefined) {
    body = call.raw ?? JSON.stringify(call.json);
    headers.set("content-type", "application/json");
  }
  const request = new Request(`http://x${call.url}`, { method: call.method, headers, body });
  try {
    return await answerOf(await (handler as Handler)({ request, params: call.params ?? {}, context: { ...apiContext(), ...call.context } } as unknown as LoaderFunctionArgs & ActionFunctionArgs));
  } catch (thrown) {
    if (thrown instanceof Response || typeof (thrown as DataLike | null)?.init?.status === "number") return answerOf(thrown);
    throw thrown;
  }
}
