import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Role } from "~/db/enums";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { allowedTo, formIntent, type IntentArgs, screenAction, screenLoader, subjectById, visitorAction } from "./screen.server";

/**
 * The intent table of the screens (decision 046), without a database: the subject is read before the
 * body and before any intent, an unknown intent is a 400, and what the verbs throw is mapped.
 */

const user = { id: 7, entityId: 3, role: Role.FACILITY_MANAGER, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels" };
const context = { auth: { user }, runtime: { services: { db: null }, files: { root: "/nonexistent", maxBytes: 1000 } }, requestId: "test" };

function post(fields: Record<string, string> | string, params: Record<string, string> = {}): ActionFunctionArgs {
  const body = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
  const request = new Request("http://x/screen", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
  return { request, params, context } as unknown as ActionFunctionArgs;
}

/** What a handler answered or threw, as a status (and where a redirect goes). */
async function answer(promise: Promise<unknown>): Promise<{ status: number; location?: string | null; data?: unknown }> {
  let value: unknown;
  try {
    value = await promise;
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, location: value.headers.get("Location") };
  const init = (value as { init?: { status?: number } | null; data?: unknown }) ?? {};
  if (init.data !== undefined) return { status: init.init?.status ?? 200, data: init.data };
  if (value instanceof Error) throw value;
  return { status: 200, data: value };
}

describe("the intent table", () => {
  const ran: string[] = [];
  const action = screenAction({
    fallback: "save",
    intents: {
      save: () => (ran.push("save"), "saved"),
      other: ({ intent }) => (ran.push(intent), "other"),
    },
  });

  it("runs the one intent the form names, or the fallback when it names none", async () => {
    ran.length = 0;
    expect(await answer(action(post({ intent: "other" })))).toEqual({ status: 200, data: "other" });
    expect(await answer(action(post({ name: "x" })))).toEqual({ status: 200, data: "saved" });
    expect(ran).toEqual(["other", "save"]);
    expect(action.intents).toEqual(["save", "other"]);
  });

  it("answers 400 for an unknown intent, an inherited name, or no intent without a fallback, and runs nothing", async () => {
    ran.length = 0;
    for (const intent of ["nothing", "", "toString", "__proto__", "constructor", "save "]) {
      expect((await answer(action(post({ intent })))).status, intent).toBe(400);
    }
    const strict = screenAction({ intents: { save: () => ran.push("strict") } });
    expect((await answer(strict(post({ name: "x" })))).status).toBe(400);
    expect((await answer(visitorAction({ intents: { a: () => "a" } })(post({ intent: "b" })))).status).toBe(400);
    expect(ran).toEqual([]);
  });

  it("answers 400 for a body that is not a readable form, before any intent", async () => {
    ran.length = 0;
    const request = new Request("http://x/screen", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect((await answer(action({ request, params: {}, context } as unknown as ActionFunctionArgs))).status).toBe(400);
    expect(ran).toEqual([]);
  });
});

describe("the subject", () => {
  /** A subject reader that records its calls, answering for id 5 only. */
  function recorder() {
    const calls: string[] = [];
    const reader = subjectById(async (_ctx, id) => {
      calls.push(`read ${id}`);
      if (id === 5) return { id, name: "Five" };
      if (id === 6) throw new ForbiddenError();
      throw new NotFoundError("rooms:errors.notFound");
    });
    const action = screenAction({
      subject: reader,
      intents: {
        save: ({ subject }: IntentArgs<{ id: number; name: string }>) => (calls.push(`save ${subject.id}`), subject.name),
      },
    });
    return { calls, reader, action };
  }

  it("is read before the body and before any intent: an id out of reach is the 404 page whatever is posted", async () => {
    const { calls, action } = recorder();
    for (const body of [{ intent: "save" }, { intent: "unknown" }, {}] as Record<string, string>[]) {
      expect(await answer(action(post(body, { id: "9" }))), JSON.stringify(body)).toEqual({ status: 404, location: null });
    }
    // Not even the body: an unreadable one is still "not found".
    const request = new Request("http://x/screen", { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect((await answer(action({ request, params: { id: "9" }, context } as unknown as ActionFunctionArgs))).status).toBe(404);
    expect(calls).toEqual(["read 9", "read 9", "read 9", "read 9"]);
  });

  it("hands the intent the subject read, and only that way the id", async () => {
    const { calls, action } = recorder();
    expect(await answer(action(post({ intent: "save" }, { id: "5" })))).toEqual({ status: 200, data: "Five" });
    expect(calls).toEqual(["read 5", "save 5"]);
  });

  it("answers a malformed id 404 without reading, and a forbidden subject with /forbidden", async () => {
    const { calls, action } = recorder();
    for (const id of ["abc", "0", "2147483648", "1e3"]) expect((await answer(action(post({ intent: "save" }, { id })))).status, id).toBe(404);
    expect(await answer(action(post({ intent: "save" }, { id: "6" })))).toEqual({ status: 302, location: "/forbidden" });
    expect(calls).toEqual(["read 6"]);
  });

  it("is read before the loader's reads too", async () => {
    const { calls, reader } = recorder();
    const loader = screenLoader(reader, ({ subject }) => (calls.push("load"), subject));
    const args = (id: string) => ({ request: new Request("http://x/screen"), params: { id }, context }) as unknown as LoaderFunctionArgs;
    expect(await answer(loader(args("9")))).toEqual({ status: 404, location: null });
    expect(await answer(loader(args("5")))).toEqual({ status: 200, data: { id: 5, name: "Five" } });
    expect(calls).toEqual(["read 9", "read 5", "load"]);
  });

  it("must be declared by a screen whose address names a record", async () => {
    const action = screenAction({ intents: { save: () => "saved" } });
    await expect(action(post({ intent: "save" }, { id: "5" }))).rejects.toThrow(/declares its subject/);
    const loader = screenLoader(() => null);
    await expect(loader({ request: new Request("http://x/screen"), params: { id: "5" }, context } as unknown as LoaderFunctionArgs)).rejects.toThrow(/declares its subject/);
  });
});

describe("errors mapped", () => {
  const Schema = z.object({ name: z.string({ error: "common:validation.required" }).min(2, "common:validation.tooShort") });
  const failing = (error: unknown) =>
    screenAction({
      intents: {
        save: formIntent({ schema: Schema, redirectTo: "/list", toast: "common:toast.updated" }, async () => {
          if (error) throw error;
        }),
        direct: () => {
          throw error;
        },
      },
    });

  it("redirects a saved form with its toast, and answers an invalid one 400 with conform's reply under its intent", async () => {
    const saved = await failing(null)(post({ intent: "save", name: "Hall" }));
    expect(saved).toBeInstanceOf(Response);
    expect((saved as Response).headers.get("Location")).toBe("/list");
    expect((saved as Response).headers.get("Set-Cookie")).toMatch(/^toast=/);
    const invalid = await answer(failing(null)(post({ intent: "save", name: "H" })));
    expect(invalid.status).toBe(400);
    expect(invalid.data).toMatchObject({ intent: "save", result: { status: "error", error: { name: ["common:validation.tooShort"] }, initialValue: { name: "H" } } });
    const control = await answer(failing(null)(post({ intent: "save", name: "a\u0000b" })));
    expect(control.status).toBe(400);
    expect(control.data).toMatchObject({ result: { error: { name: [expect.any(String)] } } });
  });

  it("maps the verb's errors: beside the field (400), not found (404), forbidden (/forbidden), anything else (500, could not save)", async () => {
    const field = await answer(failing(new ValidationError({ name: ["facilities:errors.nameTaken"] }))(post({ intent: "save", name: "Hall" })));
    expect(field).toMatchObject({ status: 400, data: { intent: "save", result: { error: { name: ["facilities:errors.nameTaken"] }, initialValue: { name: "Hall" } } } });
    const gone = await answer(failing(new NotFoundError("facilities:errors.notFound"))(post({ intent: "save", name: "Hall" })));
    expect(gone).toMatchObject({ status: 404, data: { result: { error: { "": ["facilities:errors.notFound"] } } } });
    expect(await answer(failing(new ForbiddenError())(post({ intent: "save", name: "Hall" })))).toEqual({ status: 302, location: "/forbidden" });
    const broken = await answer(failing(new Error("boom"))(post({ intent: "save", name: "Hall" })));
    expect(broken).toMatchObject({ status: 500, data: { result: { error: { "": ["common:errors.couldNotSave"] } } } });
  });

  it("maps what an intent throws outside a form like a loader's errors: not found is the 404 page, forbidden /forbidden", async () => {
    expect((await answer(failing(new NotFoundError())(post({ intent: "direct" })))).status).toBe(404);
    expect(await answer(failing(new ForbiddenError())(post({ intent: "direct" })))).toEqual({ status: 302, location: "/forbidden" });
    await expect(failing(new Error("boom"))(post({ intent: "direct" }))).rejects.toThrow("boom");
  });

  it("sends an actor who may not post an intent to /forbidden (allowedTo)", async () => {
    const action = screenAction({ intents: { entity: allowedTo("update", "entity", () => "done") } });
    expect(await answer(action(post({ intent: "entity" })))).toEqual({ status: 200, data: "done" });
    const technician = { ...context, auth: { user: { ...user, role: Role.TECHNICIAN } } };
    const request = post({ intent: "entity" });
    expect(await answer(action({ ...request, context: technician } as unknown as ActionFunctionArgs))).toEqual({ status: 302, location: "/forbidden" });
  });
});
