import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BulkUploadType, DataJobStatus, Role } from "~/db/enums";
import { dataJobs, type Entity, facilities, type User } from "~/db/schema";
import * as importRoute from "~/routes/api/imports.$id";
import * as importsRoute from "~/routes/api/imports";
import { createEntity, createFacility, createUser, pngBytes } from "#tests/factories";
import { type ApiHarness, apiContext, callApi, startApiRuntime } from "#tests/api-helpers";

/**
 * REST calls of imports (decision 054) through the route modules with a bearer token: a multipart
 * upload starts an import (202), its faults answer 400 with every line, the status is read back; wrong
 * role 403, another entity's import 404.
 */
let api: ApiHarness;
let entity: Entity;
let other: Entity;
let admin: User;
let technician: User;
let otherAdmin: User;
let adminToken: string;
let technicianToken: string;
let otherToken: string;

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<Response>;

async function upload(token: string, type: string, bytes: Uint8Array, name: string, language = "en") {
  const form = new FormData();
  form.set("type", type);
  form.set("file", new File([new Uint8Array(bytes)], name));
  const request = new Request("http://x/api/imports", { method: "POST", headers: { authorization: `Bearer ${token}`, "x-language": language }, body: form });
  const response = await (importsRoute.action as unknown as Handler)({ request, params: {}, context: apiContext() } as never);
  return { status: response.status, body: await response.json() };
}

const text = (s: string) => new TextEncoder().encode(s);

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entity = await createEntity(db);
  other = await createEntity(db);
  admin = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(db, { entityId: other.id, role: Role.ADMINISTRATOR });
  await createFacility(db, { entityId: entity.id, name: "API site" });
  [adminToken, technicianToken, otherToken] = await Promise.all([api.token(admin), api.token(technician), api.token(otherAdmin)]);
});

afterAll(async () => {
  await api?.close();
});

describe("POST /api/imports", () => {
  it("answers every faulty line, translated, and writes nothing", async () => {
    const answer = await upload(adminToken, "building", text("Naam *;Site *\n;API site\nB;Nergens\n"), "b.csv", "nl-BE");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: "INVALID_TEMPLATE_DATA", errorCode: 2, total: 2 });
    expect(answer.body.message).toBe("Ontbrekende gegevens in het bestand, gebruik het sjabloon en vul de verplichte kolommen in");
    expect(answer.body.errors).toEqual([
      { line: 2, column: "name", columnName: "Naam", type: 0, message: "Regel 2: de verplichte kolom Naam is leeg" },
      { line: 3, column: "facility", columnName: "Site", type: 2, message: "Niet gevonden: gebruik de exacte naam of de korte id" },
    ]);
    expect(await api.database.db.select().from(dataJobs).where(eq(dataJobs.entityId, entity.id))).toEqual([]);
  });

  it("refuses an unknown type, a file that is not a spreadsheet, and a file over the limit", async () => {
    const unknown = await upload(adminToken, "9", text("Name *\nA\n"), "a.csv");
    expect(unknown).toMatchObject({ status: 400, body: { code: "UNKNOWN_IMPORT_TYPE", errorCode: 1, message: "Unknown import type" } });
    const png = await upload(adminToken, "facility", pngBytes(2, 2), "a.xlsx");
    expect(png).toMatchObject({ status: 400, body: { code: "NOT_A_SPREADSHEET" } });
    const big = await upload(adminToken, "facility", new Uint8Array(api.files.maxBytes + 10).fill(65), "big.csv");
    expect(big.status).toBe(413);
    expect(big.body.code).toBe("FILE_TOO_LARGE");
  });

  it("starts an import (202) whose status, progress and rows are read back", async () => {
    const answer = await upload(adminToken, String(BulkUploadType.FACILITY), text("Name *,Description\nAPI north,\nAPI south,\n"), "f.csv");
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ importType: BulkUploadType.FACILITY, status: DataJobStatus.QUEUED, totalRows: 2, fileName: "f.csv" });
    const id = answer.body.id as number;
    const busy = await upload(adminToken, "facility", text("Name *\nAPI east\n"), "f.csv");
    expect(busy).toMatchObject({ status: 409, body: { code: "IMPORT_IN_PROGRESS" } });
    const read = await callApi(importRoute, `/api/imports/${id}`, { token: adminToken, params: { id: String(id) } });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(id);
    const list = await callApi(importsRoute, "/api/imports", { token: adminToken });
    expect(list.body.map((j: { id: number }) => j.id)).toContain(id);
    const made = await api.database.db.select().from(facilities).where(eq(facilities.name, "API north"));
    expect(made).toEqual([]); // the job writes them, not the call
  });

  it("refuses technicians (403) and answers another entity's import 404", async () => {
    expect((await upload(technicianToken, "facility", text("Name *\nX\n"), "x.csv")).status).toBe(403);
    expect((await callApi(importsRoute, "/api/imports", { token: technicianToken })).status).toBe(403);
    const [job] = await api.database.db.select().from(dataJobs).where(eq(dataJobs.entityId, entity.id));
    expect((await callApi(importRoute, `/api/imports/${job.id}`, { token: technicianToken, params: { id: String(job.id) } })).status).toBe(403);
    const foreign = await callApi(importRoute, `/api/imports/${job.id}`, { token: otherToken, params: { id: String(job.id) } });
    expect(foreign).toMatchObject({ status: 404, body: { code: "IMPORT_NOT_FOUND" } });
    for (const id of ["2147483648", "abc", "\u0000"]) {
      expect((await callApi(importRoute, `/api/imports/${id}`, { token: adminToken, params: { id } })).status).toBe(404);
    }
    expect((await callApi(importsRoute, "/api/imports", { token: otherToken })).body).toEqual([]);
    expect((await callApi(importsRoute, "/api/imports", { token: null })).status).toBe(401);
  });

  it("answers a broken multipart body, and a text part over 256 KiB, with the API's JSON error", async () => {
    const jobs = () => api.database.db.select().from(dataJobs).where(eq(dataJobs.entityId, entity.id));
    const before = await jobs();
    const post = async (body: string, language = "en") => {
      const request = new Request("http://x/api/imports", {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "x-language": language, "content-type": "multipart/form-data; boundary=XYZ" },
        body,
      });
      const response = await (importsRoute.action as unknown as Handler)({ request, params: {}, context: apiContext() } as never);
      return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
    };
    const cut = await post('--XYZ\r\nContent-Disposition: form-data; name="type"\r\n\r\n0');
    expect(cut).toMatchObject({ status: 400, type: expect.stringContaining("application/json") });
    expect(cut.body).toEqual({
      code: "UNREADABLE_FORM",
      message: "The request body is not a readable form (multipart/form-data).",
      fieldErrors: {},
      messageKey: "errors.unreadableForm",
      fieldErrorKeys: {},
    });
    expect((await post("garbage", "nl-BE")).body).toMatchObject({ code: "UNREADABLE_FORM", message: "De inhoud van het verzoek is geen leesbaar formulier (multipart/form-data)." });
    const long = await post(`--XYZ\r\nContent-Disposition: form-data; name="type"\r\n\r\n${"0".repeat(300 * 1024)}\r\n--XYZ--\r\n`);
    expect(long).toMatchObject({ status: 413, body: { code: "PAYLOAD_TOO_LARGE", message: "The data sent is too large." } });
    expect(await jobs()).toEqual(before);
  });

  it("takes only multipart bodies", async () => {
    const answer = await callApi(importsRoute, "/api/imports", { method: "POST", token: adminToken, body: { type: 0 } });
    expect(answer.status).toBe(415);
    expect((await callApi(importsRoute, "/api/imports", { method: "PUT", token: adminToken, body: {} })).status).toBe(405);
  });
});

