import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentStatus, Role } from "~/db/enums";
import { type Entity, equipmentItems, equipmentTypes, incidents, type User } from "~/db/schema";
import * as categoriesRoute from "~/routes/api/equipments.category";
import * as categoryRoute from "~/routes/api/equipments.category.$id";
import * as itemsRoute from "~/routes/api/equipments";
import * as itemRoute from "~/routes/api/equipments.$id";
import * as childrenRoute from "~/routes/api/equipments.$id.children";
import * as typeRoute from "~/routes/api/equipments.type.$id";
import * as typesRoute from "~/routes/api/equipments.type";
import * as tagRoute from "~/routes/api/equipments.type.$id.tags.$tag";
import * as tagsRoute from "~/routes/api/equipments.type.$id.tags";
import {
  createEntity,
  createEquipmentCategory,
  createEquipmentItem,
  createEquipmentType,
  createIncident,
  createIncidentType,
  createRoom,
  createUser,
  linkToEveryFacility,
  linkUserTo,
  pngBytes,
} from "#tests/factories";
import { type ApiHarness, callApi, dataUrl, startApiRuntime } from "#tests/api-helpers";

/**
 * REST calls of SPEC.md section 7 "Equipment" (generic equipment, categories, tags, specific items),
 * called through the route modules with a bearer token: answers, statuses and JSON errors.
 */
let api: ApiHarness;
let entityA: Entity;
let entityB: Entity;
let manager: User;
let technician: User;
let managerToken: string;
let adminToken: string;
let technicianToken: string;
let otherToken: string;

const VALIDATION_MESSAGE = "Please correct the highlighted fields.";

beforeAll(async () => {
  api = await startApiRuntime();
  const db = api.database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  const admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  const otherManager = await createUser(db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  [managerToken, adminToken, technicianToken, otherToken] = await Promise.all([
    api.token(manager),
    api.token(admin),
    api.token(technician),
    api.token(otherManager),
  ]);
});
afterAll(async () => {
  await api?.close();
});

describe("/api/equipments/category", () => {
  it("answers 401 without a token", async () => {
    expect((await callApi(categoriesRoute, "/api/equipments/category")).status).toBe(401);
    expect((await callApi(categoriesRoute, "/api/equipments/category", { method: "POST", body: {} })).status).toBe(401);
    expect((await callApi(categoryRoute, "/api/equipments/category/1", { params: { id: "1" } })).status).toBe(401);
  });

  it("POST creates a category (entityId optional, tags as labels or strings): 201", async () => {
    const res = await callApi(categoriesRoute, "/api/equipments/category", {
      method: "POST",
      token: managerToken,
      body: { categoryName: "Furniture", entityId: entityA.id, tags: [{ label: "wood" }, "indoor"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), categoryName: "Furniture", entityId: entityA.id, tags: ["wood", "indoor"], equipmentCount: 0 });
    const without = await callApi(categoriesRoute, "/api/equipments/category", { method: "POST", token: adminToken, body: { categoryName: "IT" } });
    expect(without.status).toBe(201);
    expect(without.body).toMatchObject({ categoryName: "IT", entityId: entityA.id, tags: [] });
  });

  it("POST refuses another entity's entityId (403), technicians (403) and bad bodies (400)", async () => {
    const post = (body: unknown, token = managerToken) => callApi(categoriesRoute, "/api/equipments/category", { method: "POST", token, body });
    const foreign = await post({ categoryName: "X", entityId: entityB.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: "FORBIDDEN", message: "You are not allowed to do this." });
    expect((await post({ categoryName: "X" }, technicianToken)).status).toBe(403);
    expect((await post("{")).body).toMatchObject({ code: "INVALID_JSON" });
    expect((await post({ tags: [] })).body).toMatchObject({ code: "VALIDATION", message: VALIDATION_MESSAGE, fieldErrors: { categoryName: ["Please set a name"] } });
    expect((await post({ categoryName: "X", tags: ["a", "b", "c", "d"] })).body.fieldErrors).toEqual({ tags: ["Could not add more than 3 tags"] });
    expect((await post({ categoryName: "X", tags: [{ label: "x".repeat(21) }] })).body.fieldErrors).toEqual({
      "tags.0": ["Tag cannot be longer than 20 characters"],
    });
    expect((await post({ categoryName: "X", tags: [""] })).body.fieldErrors).toEqual({ "tags.0": ["Tag cannot be empty"] });
    expect((await post({ categoryName: "X", entityId: "one" })).body.fieldErrors).toEqual({ entityId: ["This value is not valid"] });
  });

  it("GET lists the entity's categories with X-Total-Count, paging, sorting and search", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const token = await api.token(await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER }));
    const heating = await createEquipmentCategory(db, { entityId: entity.id, name: "Heating" });
    const lighting = await createEquipmentCategory(db, { entityId: entity.id, name: "lighting", tags: ["led"] });
    await createEquipmentCategory(db, { entityId: entity.id, name: "Gone", archivedAt: new Date() });
    await createEquipmentType(db, { entityId: entity.id, categoryId: heating.id });

    const all = await callApi(categoriesRoute, "/api/equipments/category", { token });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("2");
    expect(all.body).toEqual([
      { id: heating.id, categoryName: "Heating", entityId: entity.id, tags: [], equipmentCount: expect.any(Number) },
      { id: lighting.id, categoryName: "lighting", entityId: entity.id, tags: ["led"], equipmentCount: expect.any(Number) },
    ]);
    const page = await callApi(categoriesRoute, "/api/equipments/category?size=1&page=1&sort=name&dir=desc", { token });
    expect(page.body.map((c: { id: number }) => c.id)).toEqual([lighting.id]);
    expect(page.headers.get("X-Total-Count")).toBe("2");
    const search = await callApi(categoriesRoute, "/api/equipments/category?q=heat", { token });
    expect(search.body.map((c: { id: number }) => c.id)).toEqual([heating.id]);
  });

  it("counts the generic equipment of each category", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const token = await api.token(await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER }));
    const full = await createEquipmentCategory(db, { entityId: entity.id, name: "Full" });
    const empty = await createEquipmentCategory(db, { entityId: entity.id, name: "Empty" });
    await createEquipmentType(db, { entityId: entity.id, categoryId: full.id });
    await createEquipmentType(db, { entityId: entity.id, categoryId: full.id });
    await createEquipmentType(db, { entityId: entity.id, categoryId: full.id, archivedAt: new Date() });
    const list = await callApi(categoriesRoute, "/api/equipments/category?sort=equipmentCount&dir=desc", { token });
    expect(list.body.map((c: { id: number; equipmentCount: number }) => [c.id, c.equipmentCount])).toEqual([
      [full.id, 2],
      [empty.id, 0],
    ]);
    const get = await callApi(categoryRoute, `/api/equipments/category/${full.id}`, { token, params: { id: String(full.id) } });
    expect(get.body.equipmentCount).toBe(2);
  });

  it("GET, PUT and DELETE /{id}; another entity's id is 404", async () => {
    const db = api.database.db;
    const category = await createEquipmentCategory(db, { entityId: entityA.id, name: "Sanitary" });
    const type = await createEquipmentType(db, { entityId: entityA.id, categoryId: category.id });
    const item = await createEquipmentItem(db, { entityId: entityA.id, equipmentTypeId: type.id });
    const open = await createIncident(db, { entityId: entityA.id, equipmentItemId: item.id, status: IncidentStatus.PENDING });
    const params = { id: String(category.id) };
    const url = `/api/equipments/category/${category.id}`;

    const get = await callApi(categoryRoute, url, { token: technicianToken, params });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ id: category.id, categoryName: "Sanitary", entityId: entityA.id, tags: [], equipmentCount: expect.any(Number) });
    const other = await callApi(categoryRoute, url, { token: otherToken, params });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ code: "CATEGORY_NOT_FOUND", message: "Category not found" });
    expect((await callApi(categoryRoute, "/api/equipments/category/x", { token: managerToken, params: { id: "x" } })).body.code).toBe("CATEGORY_NOT_FOUND");

    const put = await callApi(categoryRoute, url, { method: "PUT", token: managerToken, params, body: { categoryName: "Plumbing", tags: [{ label: "water" }] } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: category.id, categoryName: "Plumbing", tags: ["water"] });
    const putBad = await callApi(categoryRoute, url, { method: "PUT", token: managerToken, params, body: { categoryName: "" } });
    expect(putBad.body.fieldErrors).toEqual({ categoryName: ["Please set a name"] });
    expect((await callApi(categoryRoute, url, { method: "PUT", token: managerToken, params, body: "x" })).body.code).toBe("INVALID_JSON");
    expect((await callApi(categoryRoute, url, { method: "PUT", token: technicianToken, params, body: { categoryName: "T" } })).status).toBe(403);
    expect((await callApi(categoryRoute, url, { method: "PUT", token: otherToken, params, body: { categoryName: "T" } })).status).toBe(404);
    expect((await callApi(categoryRoute, url, { method: "PUT", token: managerToken, params, body: { categoryName: "T", entityId: entityB.id } })).status).toBe(
      403,
    );

    expect((await callApi(categoryRoute, url, { method: "DELETE", token: technicianToken, params })).status).toBe(403);
    expect((await callApi(categoryRoute, url, { method: "DELETE", token: otherToken, params })).status).toBe(404);
    const del = await callApi(categoryRoute, url, { method: "DELETE", token: managerToken, params });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ equipmentTypes: 1, equipmentItems: 1, reportIdentifiers: 1, incidentsRejected: 1 });
    const [rejected] = await db.select({ status: incidents.status }).from(incidents).where(eq(incidents.id, open.id));
    expect(rejected.status).toBe(IncidentStatus.REJECTED);
    expect((await callApi(categoryRoute, url, { token: managerToken, params })).status).toBe(404);
    expect((await callApi(categoryRoute, url, { method: "PATCH", token: managerToken, params })).status).toBe(405);
    expect((await callApi(categoriesRoute, "/api/equipments/category", { method: "DELETE", token: managerToken })).status).toBe(405);
  });
});

describe("/api/equipments/type", () => {
  async function catalogue(entityId = entityA.id) {
    const db = api.database.db;
    const category = await createEquipmentCategory(db, { entityId, name: "Furniture" });
    const incidentType = await createIncidentType(db, { entityId, nameEn: "Wobbly" });
    return { category, incidentType };
  }

  it("answers 401 without a token", async () => {
    expect((await callApi(typesRoute, "/api/equipments/type")).status).toBe(401);
    expect((await callApi(typeRoute, "/api/equipments/type/1", { method: "PUT", params: { id: "1" }, body: {} })).status).toBe(401);
    expect((await callApi(tagsRoute, "/api/equipments/type/1/tags", { method: "POST", params: { id: "1" }, body: { label: "a" } })).status).toBe(401);
    expect((await callApi(tagRoute, "/api/equipments/type/1/tags/a", { method: "DELETE", params: { id: "1", tag: "a" } })).status).toBe(401);
  });

  it("POST creates a generic equipment with files, tags and incident types: 201", async () => {
    const { category, incidentType } = await catalogue();
    const png = pngBytes(4, 4);
    const res = await callApi(typesRoute, "/api/equipments/type", {
      method: "POST",
      token: managerToken,
      body: {
        equipmentName: "Chair",
        notes: "Blue",
        categoryId: category.id,
        files: [{ name: "photo.png", data: dataUrl(png) }],
        tags: [{ label: "seat" }, { label: "office" }],
        incidentTypes: [{ id: incidentType.id }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      equipmentName: "Chair",
      notes: "Blue",
      categoryId: category.id,
      categoryName: "Furniture",
      tags: [{ label: "seat" }, { label: "office" }],
      itemCount: 0,
      status: 1,
      entityId: entityA.id,
      creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      files: [{ id: expect.any(String), name: "photo.png", mimeType: "image/png", sizeBytes: png.byteLength, url: expect.stringMatching(/^\/files\//), isImage: true }],
      incidentTypes: [{ id: incidentType.id, name: "Wobbly" }],
    });
    // Minimal body; plain tag strings and plain ids are accepted too.
    const minimal = await callApi(typesRoute, "/api/equipments/type", {
      method: "POST",
      token: adminToken,
      body: { equipmentName: "Table", categoryId: category.id, tags: ["wood"], incidentTypes: [incidentType.id] },
    });
    expect(minimal.status).toBe(201);
    expect(minimal.body).toMatchObject({ notes: null, tags: [{ label: "wood" }], files: [], incidentTypes: [{ id: incidentType.id }] });
  });

  it("POST refuses bad bodies with 400 and translated field errors; technicians with 403", async () => {
    const { category } = await catalogue();
    const foreign = await catalogue(entityB.id);
    const post = (body: unknown, token = managerToken) => callApi(typesRoute, "/api/equipments/type", { method: "POST", token, body });
    expect((await post("[")).body).toMatchObject({ code: "INVALID_JSON", message: "The request body is not valid JSON." });
    expect((await post({})).body).toMatchObject({
      code: "VALIDATION",
      message: VALIDATION_MESSAGE,
      fieldErrors: { equipmentName: ["Please set a name"], categoryId: ["Please choose a category"] },
    });
    const base = { equipmentName: "Lamp", categoryId: category.id };
    expect((await post({ ...base, tags: [{ label: "x".repeat(21) }] })).body.fieldErrors).toEqual({ "tags.0": ["Tag cannot be longer than 20 characters"] });
    expect((await post({ ...base, tags: [{ label: "a" }, { label: "b" }, { label: "c" }, { label: "d" }] })).body.fieldErrors).toEqual({
      tags: ["Could not add more than 3 tags"],
    });
    expect((await post({ ...base, tags: [{ label: "" }] })).body.fieldErrors).toEqual({ "tags.0": ["Tag cannot be empty"] });
    expect((await post({ ...base, files: [{ name: "a.png", data: "hello" }] })).body.fieldErrors).toEqual({ files: ["The file could not be read"] });
    expect((await post({ ...base, files: [{ data: dataUrl(pngBytes(1, 1)) }] })).body.fieldErrors).toEqual({ "files.0.name": ["This value is not valid"] });
    expect((await post({ ...base, incidentTypes: ["x"] })).body.fieldErrors).toEqual({ "incidentTypes.0": ["This value is not valid"] });
    const wrong = await post({ ...base, categoryId: foreign.category.id, incidentTypes: [foreign.incidentType.id] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors).toEqual({ categoryId: ["Category not found"], incidentTypes: ["Incident type not found"] });
    expect((await post(base, technicianToken)).status).toBe(403);
  });

  it("GET lists with X-Total-Count, filters by categoryIds, pages, sorts and searches", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const token = await api.token(await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER }));
    const c1 = await createEquipmentCategory(db, { entityId: entity.id, name: "C1" });
    const c2 = await createEquipmentCategory(db, { entityId: entity.id, name: "C2" });
    const boiler = await createEquipmentType(db, { entityId: entity.id, categoryId: c1.id, name: "Boiler", tags: ["hot"] });
    await createEquipmentType(db, { entityId: entity.id, categoryId: c2.id, name: "Awning" });
    await createEquipmentType(db, { entityId: entity.id, categoryId: c2.id, name: "Old", archivedAt: new Date() });
    await createEquipmentItem(db, { entityId: entity.id, equipmentTypeId: boiler.id });

    const all = await callApi(typesRoute, "/api/equipments/type", { token });
    expect(all.headers.get("X-Total-Count")).toBe("2");
    expect(all.body.map((t: { equipmentName: string }) => t.equipmentName)).toEqual(["Awning", "Boiler"]);
    expect(all.body[1]).toEqual({
      id: boiler.id,
      equipmentName: "Boiler",
      notes: null,
      categoryId: c1.id,
      categoryName: "C1",
      tags: [{ label: "hot" }],
      itemCount: 1,
      status: 1,
      entityId: entity.id,
      creationTimestamp: expect.any(String),
    });
    const filtered = await callApi(typesRoute, `/api/equipments/type?categoryIds=${c1.id}`, { token });
    expect(filtered.body.map((t: { id: number }) => t.id)).toEqual([boiler.id]);
    const sorted = await callApi(typesRoute, "/api/equipments/type?sort=itemCount&dir=desc&size=1", { token });
    expect(sorted.body.map((t: { id: number }) => t.id)).toEqual([boiler.id]);
    expect(sorted.headers.get("X-Total-Count")).toBe("2");
    const search = await callApi(typesRoute, "/api/equipments/type?q=awn", { token });
    expect(search.body.map((t: { equipmentName: string }) => t.equipmentName)).toEqual(["Awning"]);
    expect((await callApi(typesRoute, "/api/equipments/type", { token: managerToken })).body.map((t: { id: number }) => t.id)).not.toContain(boiler.id);
  });

  it("GET and PUT /{id}: replaces fields, tags, incident types; adds and deletes files", async () => {
    const { category, incidentType } = await catalogue();
    const other = await createEquipmentCategory(api.database.db, { entityId: entityA.id, name: "Other" });
    const created = await callApi(typesRoute, "/api/equipments/type", {
      method: "POST",
      token: managerToken,
      body: { equipmentName: "Desk", categoryId: category.id, files: [{ name: "old.png", data: dataUrl(pngBytes(2, 2)) }], incidentTypes: [incidentType.id] },
    });
    const id = created.body.id as number;
    const params = { id: String(id) };
    const url = `/api/equipments/type/${id}`;

    const get = await callApi(typeRoute, url, { token: managerToken, params });
    expect(get.status).toBe(200);
    expect(get.body).toEqual(created.body);
    // A technician reads the catalogue entry, but not the documentation of equipment outside their rooms.
    const techGet = await callApi(typeRoute, url, { token: technicianToken, params });
    expect(techGet.status).toBe(200);
    expect(techGet.body).toEqual({ ...created.body, files: [] });
    const foreign = await callApi(typeRoute, url, { token: otherToken, params });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "EQUIPMENT_TYPE_NOT_FOUND", message: "Generic equipment not found" });

    const body = {
      equipmentName: "Standing desk",
      notes: "Electric",
      incidentTypes: [],
      categoryId: other.id,
      tags: [{ label: "ergonomic" }],
      deletedFiles: [created.body.files[0].id],
      newFiles: [{ name: "new.png", data: dataUrl(pngBytes(5, 5)) }],
    };
    const put = await callApi(typeRoute, url, { method: "PUT", token: managerToken, params, body });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id,
      equipmentName: "Standing desk",
      notes: "Electric",
      categoryId: other.id,
      categoryName: "Other",
      tags: [{ label: "ergonomic" }],
      incidentTypes: [],
    });
    expect(put.body.files.map((f: { name: string }) => f.name)).toEqual(["new.png"]);

    const again = (b: unknown, token = managerToken) => callApi(typeRoute, url, { method: "PUT", token, params, body: b });
    const clean = { ...body, deletedFiles: [], newFiles: [] };
    expect((await again({ ...clean, deletedFiles: [created.body.files[0].id] })).body).toMatchObject({
      code: "FILE_DELETE_FAILED",
      fieldErrors: { deletedFiles: [expect.any(String)] },
    });
    expect((await again({ ...clean, deletedFiles: ["not-a-uuid"] })).body.fieldErrors).toEqual({ "deletedFiles.0": ["This value is not valid"] });
    expect((await again({ ...clean, newFiles: [{ name: "x.png", data: "data:image/png;base64,###" }] })).body.fieldErrors).toEqual({
      newFiles: ["The file could not be read"],
    });
    expect((await again({ ...clean, tags: ["1", "2", "3", "4"] })).body.fieldErrors).toEqual({ tags: ["Could not add more than 3 tags"] });
    expect((await again({ ...clean, equipmentName: " ", categoryId: null })).body.fieldErrors).toEqual({
      equipmentName: ["Please set a name"],
      categoryId: ["Please choose a category"],
    });
    expect((await again("{")).body.code).toBe("INVALID_JSON");
    expect((await again(clean, technicianToken)).status).toBe(403);
    expect((await again(clean, otherToken)).status).toBe(404);
    expect((await callApi(typeRoute, url, { method: "POST", token: managerToken, params })).status).toBe(405);
    expect((await callApi(typesRoute, "/api/equipments/type", { method: "PUT", token: managerToken })).status).toBe(405);
  });

  it("POST /{id}/tags adds a tag (201); a fourth one, an empty or a long one is 400", async () => {
    const type = await createEquipmentType(api.database.db, { entityId: entityA.id, tags: ["one", "two"] });
    const params = { id: String(type.id) };
    const url = `/api/equipments/type/${type.id}/tags`;
    const add = (body: unknown, token = managerToken) => callApi(tagsRoute, url, { method: "POST", token, params, body });

    const res = await add({ label: "three" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: type.id, tags: [{ label: "one" }, { label: "two" }, { label: "three" }] });
    // The same tag again (ignoring case) is kept once.
    expect((await add({ label: "THREE" })).body.tags).toHaveLength(3);
    const fourth = await add({ label: "four" });
    expect(fourth.status).toBe(400);
    expect(fourth.body).toMatchObject({ code: "TOO_MANY_TAGS", message: "Could not add more than 3 tags", fieldErrors: { label: ["Could not add more than 3 tags"] } });
    expect((await add({ label: "x".repeat(21) })).body.fieldErrors).toEqual({ label: ["Tag cannot be longer than 20 characters"] });
    expect((await add({ label: "  " })).body.fieldErrors).toEqual({ label: ["Tag cannot be empty"] });
    expect((await add({})).body.fieldErrors).toEqual({ label: ["Tag cannot be empty"] });
    expect((await add("x")).body.code).toBe("INVALID_JSON");
    expect((await add({ label: "t" }, technicianToken)).status).toBe(403);
    const foreign = await add({ label: "t" }, otherToken);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("EQUIPMENT_TYPE_NOT_FOUND");
    expect((await callApi(tagsRoute, url, { token: managerToken, params })).status).toBe(405);
    expect((await callApi(tagsRoute, url, { method: "DELETE", token: managerToken, params })).status).toBe(405);
  });

  it("DELETE /{id}/tags/{tag} removes a tag (ignoring case); an absent tag is 400 TAG_NOT_FOUND", async () => {
    const type = await createEquipmentType(api.database.db, { entityId: entityA.id, tags: ["Keep", "Drop me"] });
    const del = (tag: string, token = managerToken) =>
      callApi(tagRoute, `/api/equipments/type/${type.id}/tags/${encodeURIComponent(tag)}`, { method: "DELETE", token, params: { id: String(type.id), tag } });
    const res = await del("drop ME");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: type.id, tags: [{ label: "Keep" }] });
    const absent = await del("nope");
    expect(absent.status).toBe(400);
    expect(absent.body).toMatchObject({ code: "TAG_NOT_FOUND", message: "Tag not found", fieldErrors: { tag: ["Tag not found"] } });
    expect((await del("Keep", technicianToken)).status).toBe(403);
    expect((await del("Keep", otherToken)).status).toBe(404);
    expect(
      (await callApi(tagRoute, `/api/equipments/type/${type.id}/tags/Keep`, { method: "PUT", token: managerToken, params: { id: String(type.id), tag: "Keep" } }))
        .status,
    ).toBe(405);
    const [row] = await api.database.db.select({ tags: equipmentTypes.tags }).from(equipmentTypes).where(eq(equipmentTypes.id, type.id));
    expect(row.tags).toEqual(["Keep"]);
  });

  it("DELETE /{id} archives the generic equipment: items leave the rooms, open incidents rejected", async () => {
    const db = api.database.db;
    const type = await createEquipmentType(db, { entityId: entityA.id });
    const item = await createEquipmentItem(db, { entityId: entityA.id, equipmentTypeId: type.id });
    await createIncident(db, { entityId: entityA.id, equipmentItemId: item.id, status: IncidentStatus.IN_PROGRESS });
    await createIncident(db, { entityId: entityA.id, equipmentItemId: item.id, status: IncidentStatus.DONE });
    const params = { id: String(type.id) };
    const url = `/api/equipments/type/${type.id}`;
    expect((await callApi(typeRoute, url, { method: "DELETE", token: technicianToken, params })).status).toBe(403);
    expect((await callApi(typeRoute, url, { method: "DELETE", token: otherToken, params })).status).toBe(404);
    const res = await callApi(typeRoute, url, { method: "DELETE", token: managerToken, params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ equipmentTypes: 1, equipmentItems: 1, reportIdentifiers: 1, incidentsRejected: 1 });
    const [archived] = await db.select({ archivedAt: equipmentItems.archivedAt }).from(equipmentItems).where(eq(equipmentItems.id, item.id));
    expect(archived.archivedAt).not.toBeNull();
    expect((await callApi(typeRoute, url, { token: managerToken, params })).status).toBe(404);
  });
});

describe("/api/equipments", () => {
  it("answers 401 without a token and 405 for another method", async () => {
    expect((await callApi(itemsRoute, "/api/equipments")).status).toBe(401);
    const post = await callApi(itemsRoute, "/api/equipments", { method: "POST", token: managerToken, body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET");
  });

  it("GET ?roomIds= lists the specific items of those rooms with X-Total-Count", async () => {
    const db = api.database.db;
    const entity = await createEntity(db);
    const user = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    const token = await api.token(user);
    const r1 = await createRoom(db, { entityId: entity.id, name: "R1" });
    const r2 = await createRoom(db, { entityId: entity.id, name: "R2" });
    const r3 = await createRoom(db, { entityId: entity.id, name: "R3" });
    // The manager reaches every facility of the entity (decision 022).
    await linkToEveryFacility(db, user);
    const category = await createEquipmentCategory(db, { entityId: entity.id, name: "Safety" });
    const type = await createEquipmentType(db, { entityId: entity.id, categoryId: category.id, name: "Extinguisher" });
    const i1 = await createEquipmentItem(db, { entityId: entity.id, roomId: r1.id, equipmentTypeId: type.id, internalReference: "EX-1" });
    const i2 = await createEquipmentItem(db, { entityId: entity.id, roomId: r2.id, equipmentTypeId: type.id, internalReference: "EX-2" });
    await createEquipmentItem(db, { entityId: entity.id, roomId: r3.id, equipmentTypeId: type.id });
    await createEquipmentItem(db, { entityId: entity.id, roomId: r1.id, equipmentTypeId: type.id, archivedAt: new Date() });

    const res = await callApi(itemsRoute, `/api/equipments?roomIds=${r1.id},${r2.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe("2");
    expect(res.body).toEqual([
      {
        id: i1.id,
        internalReference: "EX-1",
        equipmentTypeId: type.id,
        equipmentName: "Extinguisher",
        categoryId: category.id,
        categoryName: "Safety",
        roomId: r1.id,
        roomName: "R1",
        buildingId: r1.buildingId,
        reportIdentifier: i1.reportCode,
      },
      expect.objectContaining({ id: i2.id, internalReference: "EX-2", roomId: r2.id }),
    ]);
    const repeated = await callApi(itemsRoute, `/api/equipments?roomIds=${r2.id}&roomIds=${r3.id}`, { token });
    expect(repeated.headers.get("X-Total-Count")).toBe("2");
    const all = await callApi(itemsRoute, "/api/equipments", { token });
    expect(all.headers.get("X-Total-Count")).toBe("3");
    // A technician sees the items of the rooms in their facilities and buildings only.
    const tech = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
    await linkUserTo(db, { entityId: entity.id, userId: tech.id, buildingId: r2.buildingId });
    const techSees = await callApi(itemsRoute, "/api/equipments", { token: await api.token(tech) });
    expect((techSees.body as { id: number }[]).map((i) => i.id)).toEqual([i2.id]);
    // So does a manager: the items follow their rooms' reach.
    const narrowManager = await createUser(db, { entityId: entity.id, role: Role.FACILITY_MANAGER });
    await linkUserTo(db, { entityId: entity.id, userId: narrowManager.id, buildingId: r2.buildingId });
    const managerSees = await callApi(itemsRoute, `/api/equipments?roomIds=${r1.id},${r2.id}`, { token: await api.token(narrowManager) });
    expect((managerSees.body as { id: number }[]).map((i) => i.id)).toEqual([i2.id]);
    expect(managerSees.headers.get("X-Total-Count")).toBe("1");
    const foreign = await callApi(itemsRoute, `/api/equipments?roomIds=${r1.id}`, { token: managerToken });
    expect(foreign.body).toEqual([]);
    const none = await callApi(itemsRoute, "/api/equipments?roomIds=", { token });
    expect(none.body).toEqual([]);
  });
});

describe("/api/equipments/{id} (issue 63)", () => {
  it("GET and PUT an item's record with a document; its children; refusals change nothing", async () => {
    const db = api.database.db;
    const room = await createRoom(db, { entityId: entityA.id, name: "Boiler room" });
    const type = await createEquipmentType(db, { entityId: entityA.id, name: "Boiler" });
    const boiler = await createEquipmentItem(db, { entityId: entityA.id, roomId: room.id, equipmentTypeId: type.id, internalReference: "BLR-1" });
    const pump = await createEquipmentItem(db, { entityId: entityA.id, roomId: room.id, equipmentTypeId: type.id, internalReference: "PMP-1", parentItemId: boiler.id });
    const unlinked = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
    const unlinkedToken = await api.token(unlinked);
    await linkToEveryFacility(db, manager);
    const url = `/api/equipments/${boiler.id}`;
    const params = { id: String(boiler.id) };

    const put = await callApi(itemRoute, url, {
      method: "PUT",
      token: managerToken,
      params,
      body: { serialNumber: "SN-1001", manufacturer: "Vaillant", model: "ecoTEC", installedOn: "2025-05-02", warrantyEndsOn: "2030-05-01", supplier: "Dupont", notes: "Yearly check", newFiles: [{ name: "plate.png", data: dataUrl(pngBytes(2, 2)) }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ id: boiler.id, serialNumber: "SN-1001", manufacturer: "Vaillant", model: "ecoTEC", installedOn: "2025-05-02", warrantyEndsOn: "2030-05-01", supplier: "Dupont", notes: "Yearly check", parentItemId: null });
    expect(put.body.files.map((f: { name: string }) => f.name)).toEqual(["plate.png"]);
    expect(put.body.children).toEqual([{ id: pump.id, equipmentName: "Boiler", internalReference: "PMP-1", archived: false }]);
    const read = await callApi(itemRoute, url, { token: technicianToken, params });
    expect(read.status).toBe(404); // the technician is linked to no facility
    expect((await callApi(itemRoute, url, { token: managerToken, params })).body.serialNumber).toBe("SN-1001");
    const children = await callApi(childrenRoute, `${url}/children`, { token: managerToken, params });
    expect(children.body).toEqual([{ id: pump.id, equipmentName: "Boiler", internalReference: "PMP-1", archived: false }]);

    const stored = async () => JSON.stringify(await db.select().from(equipmentItems).where(eq(equipmentItems.entityId, entityA.id)).orderBy(equipmentItems.id));
    const before = await stored();
    // A parent loop: the boiler under its own pump.
    const loop = await callApi(itemRoute, url, { method: "PUT", token: managerToken, params, body: { parentItemId: pump.id } });
    expect(loop.status).toBe(400);
    expect(loop.body.code).toBe("PARENT_LOOP");
    // Another entity, a manager out of reach, a technician: refused.
    for (const token of [otherToken, unlinkedToken]) {
      expect((await callApi(itemRoute, url, { token, params })).status).toBe(404);
      expect((await callApi(childrenRoute, `${url}/children`, { token, params })).status).toBe(404);
      const refused = await callApi(itemRoute, url, { method: "PUT", token, params, body: { serialNumber: "X" } });
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe("EQUIPMENT_ITEM_NOT_FOUND");
    }
    expect((await callApi(itemRoute, url, { method: "PUT", token: technicianToken, params, body: { serialNumber: "X" } })).status).toBe(403);
    expect((await callApi(itemRoute, url, { method: "DELETE", token: managerToken, params })).status).toBe(405);
    expect(await stored()).toBe(before);
  });
});
