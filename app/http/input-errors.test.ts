import { describe, expect, it } from "vitest";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { gated } from "./gate.server";

/** What a screen's loader lets escape becomes its answer, never a 500 (the gate wraps every loader). */
const args = (user: unknown = { id: 1, role: 1, entityId: 1 }) =>
  ({ request: new Request("http://localhost/dashboard?facility=999"), context: { auth: { user, session: null } }, params: {} }) as never;

async function answerOf(error: unknown, access: "manager" | "api" = "manager"): Promise<Response> {
  try {
    await gated(access, async () => {
      throw error;
    })(args());
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("no answer");
}

describe("errors escaping a loader or action", () => {
  it("answer a service's not-found as the 404 page naming it, and its forbidden as /forbidden", async () => {
    const notFound = await answerOf(new NotFoundError("dashboard:errors.filterNotFound", "DASHBOARD_FILTER_NOT_FOUND"));
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ messageKey: "dashboard:errors.filterNotFound", code: "DASHBOARD_FILTER_NOT_FOUND" });
    const forbidden = await answerOf(new ForbiddenError());
    expect(forbidden.status).toBe(302);
    expect(forbidden.headers.get("Location")).toBe("/forbidden");
    expect((await answerOf(new ForbiddenError(), "api")).status).toBe(403);
    expect((await answerOf(new ValidationError({}))).status).toBe(400);
    expect((await answerOf(new ConflictError("x"))).status).toBe(409);
  });

  it("answer a database error caused by input as 400, and leave real failures alone", async () => {
    expect((await answerOf(Object.assign(new Error("invalid byte sequence"), { code: "22021" }))).status).toBe(400);
    await expect(answerOf(new Error("the disk is full"))).rejects.toThrow("the disk is full");
  });
});
