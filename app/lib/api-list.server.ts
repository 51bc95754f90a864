import { ValidationError } from "~/lib/errors";
import type { Page } from "~/lib/list-query";
import { parseInput } from "~/lib/validation";
import type { z } from "zod";

/**
 * REST answers shared by the /api routes beside `api.server.ts`: lists as a JSON array with the
 * total in `X-Total-Count`, 201 for a creation, 405 for a method the address does not take, and
 * bodies that may be left out.
 */
export function listJson<T>(page: Pick<Page<T>, "items" | "total">): Response {
  return Response.json(page.items, { headers: { "X-Total-Count": String(page.total) } });
}

export function created(body: unknown): Response {
  return Response.json(body, { status: 201 });
}

/** 405 with the methods the address takes in `Allow`. */
export function methodNotAllowed(allow: string): Response {
  return Response.json({ code: "METHOD_NOT_ALLOWED", message: "Method Not Allowed" }, { status: 405, headers: { Allow: allow } });
}

/** Like `parseJson`, but an empty body counts as `{}` (DELETE with optional options). */
export async function parseOptionalJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const text = await request.text();
  let body: unknown = {};
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ValidationError({}, "errors.invalidJson", "INVALID_JSON");
    }
  }
  return parseInput(schema, body);
}
