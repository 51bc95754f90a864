import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "~/db/enums";
import type { Room, User } from "~/db/schema";
import { gated } from "~/http/gate.server";
import type { AuthUser } from "~/modules/auth/service.server";
import * as printingScreen from "~/routes/printing";
import * as qrPdf from "~/routes/resources/printing.qr-codes[.pdf]";
import { createEntity, createRoom, createUser } from "#tests/factories";
import { type ApiHarness, apiContext, startApiRuntime } from "#tests/api-helpers";

/**
 * Issue 60 item 12: a refused print never carries the chosen places in an address (5,001 room ids made a
 * 64 KB `Location` the app itself refused); the screen answers the refusal with the form (400) and the
 * choices kept, and sends a print that passes on to the PDF with the same body.
 */
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

let api: ApiHarness;
let manager: User;
let room: Room;

const asAuth = (user: User): AuthUser => ({ id: user.id, entityId: user.entityId, role: user.role, sessionId: "s", expiresAt: Date.now() + 60_000, timeZone: "Europe/Brussels" });

async function post(handler: unknown, path: string, form: URLSearchParams): Promise<unknown> {
  const request = new Request(`http://x${path}`, { method: "POST", headers: { "x-language": "en", "content-type": "application/x-www-form-urlencoded" }, body: form.toString() });
  const context = { ...apiContext(), auth: { user: asAuth(manager), session: null } };
  try {
    return await (gated("manager", handler as Handler) as Handler)({ request, params: {}, context } as unknown as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    return thrown;
  }
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- action answers, checked by the assertions
const dataOf = (answer: unknown) => ((answer as { data?: unknown })?.data ?? answer) as any;
const statusOf = (answer: unknown) => (answer instanceof Response ? answer.status : ((answer as { init?: { status?: number } }).init?.status ?? 200));

function manyRooms(extra: Record<string, string> = {}): URLSearchParams {
  const form = new URLSearchParams(extra);
  for (let id = 1_000_000; id < 1_005_001; id++) form.append("roomIds", String(id));
  return form;
}

beforeAll(async () => {
  api = await startApiRuntime();
  const entity = await createEntity(api.database.db);
  manager = await createUser(api.database.db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  room = await createRoom(api.database.db, { entityId: entity.id });
});
afterAll(async () => {
  await api?.close();
});

describe("a refused QR print", () => {
  it("answers the screen's form with 400, the error and the 5,001 chosen rooms, and no address", async () => {
    const answer = await post(printingScreen.action, "/printing", manyRooms({ intent: "print", startRow: "1", startColumn: "1" }));
    expect(statusOf(answer)).toBe(400);
    expect(answer instanceof Response ? answer.headers.get("Location") : null).toBeNull();
    const refused = dataOf(answer).refused;
    expect(refused.errors).toEqual(["printing:validation.tooMany"]);
    expect(refused.selection.roomIds).toHaveLength(5001);
    expect(refused.selection.roomIds[5000]).toBe(1_005_000);
  });

  it("answers a bad start row with its message and the choice kept", async () => {
    const form = new URLSearchParams({ intent: "print", startRow: "9", startColumn: "1" });
    form.append("roomIds", String(room.id));
    const answer = await post(printingScreen.action, "/printing", form);
    expect(statusOf(answer)).toBe(400);
    expect(dataOf(answer).refused).toEqual({ errors: ["printing:validation.startRow"], selection: expect.objectContaining({ roomIds: [room.id] }) });
  });

  it("sends a print that passes on to the PDF with the same body (307)", async () => {
    const form = new URLSearchParams({ intent: "print", startRow: "1", startColumn: "1" });
    form.append("roomIds", String(room.id));
    const answer = (await post(printingScreen.action, "/printing", form)) as Response;
    expect(answer.status).toBe(307);
    expect(answer.headers.get("Location")).toBe("/printing/qr-codes.pdf");
  });

  it("comes back from /printing/qr-codes.pdf without the chosen places in the address", async () => {
    const answer = (await post(qrPdf.action, "/printing/qr-codes.pdf", manyRooms({ startRow: "2", startColumn: "1" }))) as Response;
    expect(answer.status).toBe(303);
    const location = answer.headers.get("Location") ?? "";
    expect(location.length).toBeLessThan(300);
    expect(location).not.toContain("roomIds");
    expect(new URL(location, "http://x").searchParams.get("startRow")).toBe("2");
  });
});
