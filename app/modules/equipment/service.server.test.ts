import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { EquipmentTypeStatus, IncidentEventType, IncidentStatus, IncidentTypeStatus, Role } from "~/db/enums";
import { type Entity, type EquipmentCategory, equipmentCategories, type EquipmentItem, equipmentItems, type EquipmentType, equipmentTypeFiles, equipmentTypes, type Incident, incidentEvents, incidents, type IncidentType, incidentTypeEquipmentTypes, reportIdentifiers, type Room, rooms, storedFiles, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import type { FileStore } from "~/modules/files/storage.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { createEntity, createEquipmentCategory, createEquipmentItem, createEquipmentType as createEquipmentTypeRow, createIncident, createIncidentType, createRoom, createUser } from "#tests/factories";
import { pngBytes } from "#tests/factories/files";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, expectFieldError, fieldErrorsOf, rejectionOf } from "#tests/service-helpers";
import { getCategory, getEquipmentType } from "./queries.server";
import type { EquipmentTypeInput } from "./schema";
import { addEquipmentTypeTag, archiveCategory, archiveEquipmentType, createCategory, createEquipmentType, type EquipmentTypeWrite, removeEquipmentTypeTag, updateCategory, updateEquipmentType } from "./service.server";

const NAME_REQUIRED = "equipment:validation.nameRequired";
const CATEGORY_REQUIRED = "equipment:validation.categoryRequired";
const CATEGORY_NOT_FOUND = "equipment:errors.categoryNotFound";
const INCIDENT_TYPE_NOT_FOUND = "rooms:errors.incidentTypeNotFound";
const TAG_EMPTY = "common:tags.empty";
const TAG_TOO_MANY = "common:tags.tooMany";
const TAG_TOO_LONG = "common:tags.tooLong";
const WRONG_NAME = "common:archive.wrongName";

let database: Database;
let entityA: Entity;
let entityB: Entity;
let manager: User;
let admin: User;
let technician: User;
let otherManager: User;
let categoryA: EquipmentCategory;
let otherCategoryA: EquipmentCategory;
let categoryB: EquipmentCategory;
let incidentTypeA: IncidentType;
let otherIncidentTypeA: IncidentType;
let incidentTypeB: IncidentType;
let typeB: EquipmentType;
const files: FileStore = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-equipment-")), maxBytes: 64 * 1024 };

const ctxFor = (user: User) => actorContext(database.db, user, { files });
const anonymous = (): FilesContext => ({ ...ctxFor(manager), actor: null });

const pdfBytes = () => new TextEncoder().encode("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
const svgBytes = () => new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>');
const randomBytes = () => new Uint8Array(Array.from({ length: 64 }, (_, i) => (i * 53 + 7) % 256));

function typeInput(overrides: Partial<EquipmentTypeWrite> = {}): EquipmentTypeWrite {
  return {
    equipmentName: "Projector",
    notes: "Ceiling mounted",
    categoryId: categoryA.id,
    tags: ["av"],
    incidentTypes: [incidentTypeA.id],
    ...overrides,
  };
}

// ---------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------

const TRACKED = {
  equipmentCategories,
  equipmentTypes,
  equipmentTypeFiles,
  equipmentItems,
  incidentTypeEquipmentTypes,
  reportIdentifiers,
  incidents,
  incidentEvents,
  storedFiles,
  rooms,
};

async function snapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [name, table] of Object.entries(TRACKED)) {
    const rows = await database.db.select().from(table as typeof equipmentTypes);
    out[name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  out.disk = (fs.readdirSync(files.root, { recursive: true }) as string[]).sort();
  return out;
}

async function expectNothingChanged(before: Record<string, string[]>) {
  expect(await snapshot()).toEqual(before);
}

async function categoryRow(id: number) {
  const [row] = await database.db.select().from(equipmentCategories).where(eq(equipmentCategories.id, id));
  return row;
}

async function typeRow(id: number) {
  const [row] = await database.db.select().from(equipmentTypes).where(eq(equipmentTypes.id, id));
  return row;
}

async function itemRows(ids: number[]) {
  return database.db.select().from(equipmentItems).where(inArray(equipmentItems.id, ids)).orderBy(equipmentItems.id);
}

async function identifierRows(itemIds: number[]) {
  return database.db.select().from(reportIdentifiers).where(inArray(reportIdentifiers.equipmentItemId, itemIds));
}

async function incidentRow(id: number) {
  const [row] = await database.db.select().from(incidents).where(eq(incidents.id, id));
  return row;
}

async function statusEventsOf(incidentId: number) {
  return database.db
    .select()
    .from(incidentEvents)
    .where(and(eq(incidentEvents.incidentId, incidentId), eq(incidentEvents.type, IncidentEventType.STATUS_UPDATE)));
}

async function expectRejectedBy(incident: Incident, actor: User) {
  expect((await incidentRow(incident.id)).status).toBe(IncidentStatus.REJECTED);
  const events = await statusEventsOf(incident.id);
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    entityId: incident.entityId,
    actorId: actor.id,
    oldValue: incident.status,
    newValue: IncidentStatus.REJECTED,
  });
}

async function expectUntouched(incident: Incident) {
  const row = await incidentRow(incident.id);
  expect(row.status).toBe(incident.status);
  expect(row.updatedAt).toEqual(incident.updatedAt);
  expect(await statusEventsOf(incident.id)).toHaveLength(0);
}

const STATUSES = [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE, IncidentStatus.REJECTED] as const;
const isOpen = (i: Incident) => i.status === IncidentStatus.PENDING || i.status === IncidentStatus.IN_PROGRESS;

/** Items of `type` in `roomList` (one per room), each with one incident per workflow status. */
async function placeItems(type: EquipmentType, roomList: Room[]) {
  const items: EquipmentItem[] = [];
  const itemIncidents: Incident[] = [];
  for (const room of roomList) {
    const item = await createEquipmentItem(database.db, { entityId: type.entityId, roomId: room.id, equipmentTypeId: type.id });
    items.push(item);
    for (const status of STATUSES) {
      itemIncidents.push(await createIncident(database.db, { entityId: type.entityId, equipmentItemId: item.id, roomId: null, status }));
    }
  }
  return { items, incidents: itemIncidents };
}

function filesOnDisk(): string[] {
  return (fs.readdirSync(files.root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(files.root, f)).isFile());
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  entityA = await createEntity(db, { name: "Entity A" });
  entityB = await createEntity(db, { name: "Entity B" });
  manager = await createUser(db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  admin = await createUser(db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  technician = await createUser(db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherManager = await createUser(db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  categoryA = await createEquipmentCategory(db, { entityId: entityA.id, name: "Furniture" });
  otherCategoryA = await createEquipmentCategory(db, { entityId: entityA.id, name: "Electronics" });
  categoryB = await createEquipmentCategory(db, { entityId: entityB.id, name: "Furniture" });
  incidentTypeA = await createIncidentType(db, { entityId: entityA.id, nameEn: "Broken" });
  otherIncidentTypeA = await createIncidentType(db, { entityId: entityA.id, nameEn: "Missing" });
  incidentTypeB = await createIncidentType(db, { entityId: entityB.id, nameEn: "Broken" });
  typeB = await createEquipmentTypeRow(db, { entityId: entityB.id, categoryId: categoryB.id, name: "Chair", tags: ["b"] });
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(files.root, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------

describe("createCategory", () => {
  it("stores the trimmed name and tags for a manager and an administrator", async () => {
    const created = await createCategory(ctxFor(manager), { categoryName: "  Lighting ", tags: ["LED", "led", " lamps "] });
    expect(created).toEqual({
      id: expect.any(Number),
      categoryName: "Lighting",
      entityId: entityA.id,
      tags: ["LED", "lamps"],
      equipmentCount: 0,
    });
    expect(await categoryRow(created.id)).toMatchObject({
      entityId: entityA.id,
      name: "Lighting",
      tags: ["LED", "lamps"],
      archivedAt: null,
    });
    const byAdmin = await createCategory(ctxFor(admin), { categoryName: "Plumbing" });
    expect(byAdmin).toMatchObject({ categoryName: "Plumbing", tags: [], entityId: entityA.id });
  });

  it("refuses a technician and a missing actor, writing nothing", async () => {
    const before = await snapshot();
    await expect(createCategory(ctxFor(technician), { categoryName: "Nope" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createCategory(anonymous(), { categoryName: "Nope" })).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });

  it("names the missing name and every tag rule, writing nothing", async () => {
    const ctx = ctxFor(manager);
    const before = await snapshot();
    await expectFieldError(createCategory(ctx, { categoryName: "" }), "categoryName", NAME_REQUIRED);
    await expectFieldError(createCategory(ctx, { categoryName: "  " }), "categoryName", NAME_REQUIRED);
    await expectFieldError(createCategory(ctx, {} as never), "categoryName", NAME_REQUIRED);
    await expectFieldError(createCategory(ctx, { categoryName: "C", tags: [" "] }), "tags.0", TAG_EMPTY);
    await expectFieldError(createCategory(ctx, { categoryName: "C", tags: ["a", "b", "c", "d"] }), "tags", TAG_TOO_MANY);
    await expectFieldError(createCategory(ctx, { categoryName: "C", tags: ["z".repeat(21)] }), "tags.0", TAG_TOO_LONG);
    await expectNothingChanged(before);
  });
});

describe("updateCategory", () => {
  it("replaces the name and tags", async () => {
    const category = await createEquipmentCategory(database.db, { entityId: entityA.id, name: "Old", tags: ["x"] });
    const updated = await updateCategory(ctxFor(manager), category.id, { categoryName: "New", tags: ["y", "z".repeat(20)] });
    expect(updated).toMatchObject({ id: category.id, categoryName: "New", tags: ["y", "z".repeat(20)] });
    expect(await categoryRow(category.id)).toMatchObject({ name: "New", tags: ["y", "z".repeat(20)] });
    expect((await updateCategory(ctxFor(admin), category.id, { categoryName: "New" })).tags).toEqual([]);
  });

  it("answers not found for another entity's or an archived category, changing nothing", async () => {
    const archived = await createEquipmentCategory(database.db, { entityId: entityA.id, archivedAt: new Date() });
    const before = await snapshot();
    await expect(updateCategory(ctxFor(manager), categoryB.id, { categoryName: "Taken" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateCategory(ctxFor(otherManager), categoryA.id, { categoryName: "Taken" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateCategory(ctxFor(manager), archived.id, { categoryName: "Back" })).rejects.toBeInstanceOf(NotFoundError);
    await expectNothingChanged(before);
  });

  it("refuses a technician and validates, changing nothing", async () => {
    const ctx = ctxFor(manager);
    const before = await snapshot();
    await expect(updateCategory(ctxFor(technician), categoryA.id, { categoryName: "Hacked" })).rejects.toBeInstanceOf(ForbiddenError);
    await expectFieldError(updateCategory(ctx, categoryA.id, { categoryName: "" }), "categoryName", NAME_REQUIRED);
    await expectFieldError(updateCategory(ctx, categoryA.id, { categoryName: "F", tags: [""] }), "tags.0", TAG_EMPTY);
    await expectFieldError(updateCategory(ctx, categoryA.id, { categoryName: "F", tags: ["1", "2", "3", "4"] }), "tags", TAG_TOO_MANY);
    await expectFieldError(updateCategory(ctx, categoryA.id, { categoryName: "F", tags: ["q".repeat(21)] }), "tags.0", TAG_TOO_LONG);
    await expectNothingChanged(before);
  });
});

describe("archiveCategory", () => {
  it("archives the category, all its generic equipment and their items; other categories untouched", async () => {
    const db = database.db;
    const category = await createEquipmentCategory(db, { entityId: entityA.id, name: "Kitchen" });
    const fridge = await createEquipmentTypeRow(db, { entityId: entityA.id, categoryId: category.id, name: "Fridge" });
    const oven = await createEquipmentTypeRow(db, { entityId: entityA.id, categoryId: category.id, name: "Oven" });
    const oldType = await createEquipmentTypeRow(db, { entityId: entityA.id, categoryId: category.id, archivedAt: new Date() });
    const bystanderType = await createEquipmentTypeRow(db, { entityId: entityA.id, categoryId: otherCategoryA.id });
    const room1 = await createRoom(db, { entityId: entityA.id });
    const room2 = await createRoom(db, { entityId: entityA.id });
    const fridges = await placeItems(fridge, [room1, room2]);
    const ovens = await placeItems(oven, [room1]);
    const bystanders = await placeItems(bystanderType, [room1]);
    const roomIncident = await createIncident(db, { entityId: entityA.id, roomId: room1.id });
    const bystanderBefore = {
      items: await itemRows(bystanders.items.map((i) => i.id)),
      ids: await identifierRows(bystanders.items.map((i) => i.id)),
    };
    const ours = [...fridges.items, ...ovens.items].map((i) => i.id);
    const live = async () => ({
      items: (await itemRows(ours)).filter((i) => i.archivedAt === null).length,
      identifiers: (await identifierRows(ours)).filter((r) => r.archivedAt === null).length,
      open: (await Promise.all([...fridges.incidents, ...ovens.incidents].map((i) => incidentRow(i.id)))).filter(isOpen).length,
    });
    expect(await live()).toEqual({ items: 3, identifiers: 3, open: 6 });

    const counts = await archiveCategory(ctxFor(manager), category.id, { confirmName: "Kitchen" });
    expect(counts).toEqual({ equipmentTypes: 2, equipmentItems: 3, reportIdentifiers: 3, incidentsRejected: 6 });
    expect(await live()).toEqual({ items: 0, identifiers: 0, open: 0 });
    expect((await categoryRow(category.id)).archivedAt).not.toBeNull();
    for (const type of [fridge, oven]) expect((await typeRow(type.id)).archivedAt).not.toBeNull();
    expect((await typeRow(oldType.id)).archivedAt).toEqual(oldType.archivedAt);
    for (const incident of [...fridges.incidents, ...ovens.incidents]) {
      if (isOpen(incident)) await expectRejectedBy(incident, manager);
      else await expectUntouched(incident);
    }
    await expectUntouched(roomIncident);
    expect((await typeRow(bystanderType.id)).archivedAt).toBeNull();
    expect(await itemRows(bystanders.items.map((i) => i.id))).toEqual(bystanderBefore.items);
    expect(await identifierRows(bystanders.items.map((i) => i.id))).toEqual(bystanderBefore.ids);
    for (const incident of bystanders.incidents) await expectUntouched(incident);
    await expect(getCategory(ctxFor(manager), category.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getEquipmentType(ctxFor(manager), fridge.id)).rejects.toBeInstanceOf(NotFoundError);
    // The rooms stay.
    for (const room of [room1, room2]) {
      const [row] = await db.select().from(rooms).where(eq(rooms.id, room.id));
      expect(row.archivedAt).toBeNull();
    }
  });

  it("archives an empty category without a confirmation", async () => {
    const category = await createEquipmentCategory(database.db, { entityId: entityA.id });
    expect(await archiveCategory(ctxFor(admin), category.id)).toEqual({
      equipmentTypes: 0,
      equipmentItems: 0,
      reportIdentifiers: 0,
      incidentsRejected: 0,
    });
    expect((await categoryRow(category.id)).archivedAt).not.toBeNull();
  });

  it("refuses a wrong confirmation name, archiving nothing", async () => {
    const category = await createEquipmentCategory(database.db, { entityId: entityA.id, name: "Sanitary" });
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: category.id });
    await placeItems(type, [await createRoom(database.db, { entityId: entityA.id })]);
    const before = await snapshot();
    for (const confirmName of ["sanitary", "Sanitar", ""]) {
      await expectFieldError(archiveCategory(ctxFor(manager), category.id, { confirmName }), "confirmName", WRONG_NAME);
    }
    await expectNothingChanged(before);
  });

  it("answers not found for another entity's or an archived category and refuses a technician, archiving nothing", async () => {
    const archived = await createEquipmentCategory(database.db, { entityId: entityA.id, archivedAt: new Date() });
    const before = await snapshot();
    await expect(archiveCategory(ctxFor(manager), categoryB.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveCategory(ctxFor(otherManager), categoryA.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveCategory(ctxFor(manager), archived.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveCategory(ctxFor(technician), categoryA.id, { confirmName: "Furniture" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(archiveCategory(anonymous(), categoryA.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });
});

// ---------------------------------------------------------------------------
// Generic equipment
// ---------------------------------------------------------------------------

describe("createEquipmentType", () => {
  it("stores every field with its incident types", async () => {
    const created = await createEquipmentType(
      ctxFor(manager),
      typeInput({
        equipmentName: " Beamer ",
        notes: "  ",
        tags: ["AV", "av", "ceiling"],
        incidentTypes: [otherIncidentTypeA.id, incidentTypeA.id],
      })
    );
    expect(created).toMatchObject({
      equipmentName: "Beamer",
      notes: null,
      categoryId: categoryA.id,
      categoryName: "Furniture",
      tags: [{ label: "AV" }, { label: "ceiling" }],
      itemCount: 0,
      status: EquipmentTypeStatus.ACTIVE,
      entityId: entityA.id,
      files: [],
      incidentTypes: [
        { id: incidentTypeA.id, name: "Broken" },
        { id: otherIncidentTypeA.id, name: "Missing" },
      ],
    });
    expect(Date.parse(created.creationTimestamp)).not.toBeNaN();
    expect(await typeRow(created.id)).toMatchObject({
      entityId: entityA.id,
      name: "Beamer",
      notes: null,
      tags: ["AV", "ceiling"],
      archivedAt: null,
    });
    const links = await database.db
      .select()
      .from(incidentTypeEquipmentTypes)
      .where(eq(incidentTypeEquipmentTypes.equipmentTypeId, created.id));
    expect(links.map((l) => [l.entityId, l.incidentTypeId]).sort()).toEqual(
      [
        [entityA.id, incidentTypeA.id],
        [entityA.id, otherIncidentTypeA.id],
      ].sort()
    );
    const minimal = await createEquipmentType(ctxFor(admin), { equipmentName: "Bin", categoryId: otherCategoryA.id });
    expect(minimal).toMatchObject({ notes: null, tags: [], incidentTypes: [], categoryName: "Electronics" });
  });

  it("attaches new images and documents", async () => {
    const created = await createEquipmentType(
      ctxFor(manager),
      typeInput({
        newFiles: [
          { bytes: pngBytes(5, 5), name: "front.png" },
          { bytes: pdfBytes(), name: "manual.pdf" },
        ],
      })
    );
    expect(created.files.map((f) => [f.name, f.mimeType, f.isImage]).sort()).toEqual([
      ["front.png", "image/png", true],
      ["manual.pdf", "application/pdf", false],
    ]);
    const rows = await database.db.select().from(equipmentTypeFiles).where(eq(equipmentTypeFiles.equipmentTypeId, created.id));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.entityId).toBe(entityA.id);
      const [stored] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, row.fileId));
      expect(stored).toMatchObject({ entityId: entityA.id, deletedAt: null });
      expect(fs.existsSync(path.join(files.root, stored.storageKey))).toBe(true);
    }
  });

  it("refuses a file of unknown format or too large, writing nothing", async () => {
    const ctx = ctxFor(manager);
    const before = await snapshot();
    const diskBefore = filesOnDisk();
    const oversized = new Uint8Array(files.maxBytes + 1);
    oversized.set(pngBytes(8, 8));
    const withFiles = (...newFiles: { bytes: Uint8Array; name: string }[]) => createEquipmentType(ctx, typeInput({ newFiles }));
    await expectFieldError(withFiles({ bytes: randomBytes(), name: "x.pdf" }), "newFiles", "errors.file.wrongFormat");
    await expectFieldError(withFiles({ bytes: svgBytes(), name: "x.svg" }), "newFiles", "errors.file.wrongFormat");
    await expectFieldError(
      withFiles({ bytes: pngBytes(3, 3), name: "ok.png" }, { bytes: svgBytes(), name: "x.svg" }),
      "newFiles",
      "errors.file.wrongFormat"
    );
    await expectFieldError(withFiles({ bytes: oversized, name: "big.png" }), "newFiles", "errors.file.tooLarge");
    await expectNothingChanged(before);
    expect(filesOnDisk()).toEqual(diskBefore);
  });

  it("refuses a technician and a missing actor, writing nothing", async () => {
    const before = await snapshot();
    await expect(createEquipmentType(ctxFor(technician), typeInput())).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      createEquipmentType(anonymous(), typeInput({ newFiles: [{ bytes: pngBytes(2, 2), name: "a.png" }] }))
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });

  it("names the missing name and category and every tag rule, writing nothing", async () => {
    const ctx = ctxFor(manager);
    const before = await snapshot();
    const fieldErrors = await fieldErrorsOf(createEquipmentType(ctx, { equipmentName: " " } as EquipmentTypeInput));
    expect(fieldErrors).toEqual({ equipmentName: [NAME_REQUIRED], categoryId: [CATEGORY_REQUIRED] });
    await expectFieldError(createEquipmentType(ctx, typeInput({ equipmentName: undefined as never })), "equipmentName", NAME_REQUIRED);
    await expectFieldError(createEquipmentType(ctx, typeInput({ categoryId: 0 })), "categoryId", CATEGORY_REQUIRED);
    await expectFieldError(createEquipmentType(ctx, typeInput({ categoryId: null as never })), "categoryId", CATEGORY_REQUIRED);
    await expectFieldError(createEquipmentType(ctx, typeInput({ tags: [""] })), "tags.0", TAG_EMPTY);
    await expectFieldError(createEquipmentType(ctx, typeInput({ tags: ["a", "b", "c", "d"] })), "tags", TAG_TOO_MANY);
    await expectFieldError(createEquipmentType(ctx, typeInput({ tags: ["x".repeat(21)] })), "tags.0", TAG_TOO_LONG);
    await expectNothingChanged(before);
  });

  it("refuses a category or incident type of another entity, or archived ones, as field errors", async () => {
    const db = database.db;
    const archivedCategory = await createEquipmentCategory(db, { entityId: entityA.id, archivedAt: new Date() });
    const archivedIncidentType = await createIncidentType(db, {
      entityId: entityA.id,
      archivedAt: new Date(),
      status: IncidentTypeStatus.ARCHIVED,
    });
    const ctx = ctxFor(manager);
    const before = await snapshot();
    expect(
      await fieldErrorsOf(
        createEquipmentType(ctx, typeInput({ categoryId: categoryB.id, incidentTypes: [incidentTypeA.id, incidentTypeB.id] }))
      )
    ).toEqual({
      categoryId: [CATEGORY_NOT_FOUND],
      incidentTypes: [INCIDENT_TYPE_NOT_FOUND],
    });
    expect(
      await fieldErrorsOf(
        createEquipmentType(ctx, typeInput({ categoryId: archivedCategory.id, incidentTypes: [archivedIncidentType.id] }))
      )
    ).toEqual({
      categoryId: [CATEGORY_NOT_FOUND],
      incidentTypes: [INCIDENT_TYPE_NOT_FOUND],
    });
    expect(Object.keys(await fieldErrorsOf(createEquipmentType(ctxFor(otherManager), typeInput()))).sort()).toEqual([
      "categoryId",
      "incidentTypes",
    ]);
    await expectNothingChanged(before);
  });
});

describe("updateEquipmentType", () => {
  it("replaces every field and the incident types", async () => {
    const type = await createEquipmentType(ctxFor(manager), typeInput({ equipmentName: "Screen" }));
    const updated = await updateEquipmentType(
      ctxFor(manager),
      type.id,
      typeInput({
        equipmentName: "Big screen",
        notes: "65 inch",
        categoryId: otherCategoryA.id,
        tags: ["tv"],
        incidentTypes: [otherIncidentTypeA.id],
      })
    );
    expect(updated).toMatchObject({
      id: type.id,
      equipmentName: "Big screen",
      notes: "65 inch",
      categoryId: otherCategoryA.id,
      categoryName: "Electronics",
      tags: [{ label: "tv" }],
      incidentTypes: [{ id: otherIncidentTypeA.id, name: "Missing" }],
      creationTimestamp: type.creationTimestamp,
    });
    expect(await typeRow(type.id)).toMatchObject({ name: "Big screen", notes: "65 inch", categoryId: otherCategoryA.id, tags: ["tv"] });
    const cleared = await updateEquipmentType(ctxFor(admin), type.id, { equipmentName: "Big screen", categoryId: otherCategoryA.id });
    expect(cleared).toMatchObject({ notes: null, tags: [], incidentTypes: [] });
    expect(
      await database.db.select().from(incidentTypeEquipmentTypes).where(eq(incidentTypeEquipmentTypes.equipmentTypeId, type.id))
    ).toEqual([]);
  });

  it("adds new files and deletes attached ones", async () => {
    const ctx = ctxFor(manager);
    const type = await createEquipmentType(
      ctx,
      typeInput({
        newFiles: [
          { bytes: pngBytes(4, 4), name: "old.png" },
          { bytes: pdfBytes(), name: "keep.pdf" },
        ],
      })
    );
    const old = type.files.find((f) => f.name === "old.png")!;
    const [oldStored] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, old.id));
    const updated = await updateEquipmentType(
      ctx,
      type.id,
      typeInput({ deletedFiles: [old.id], newFiles: [{ bytes: pngBytes(9, 9), name: "new.png" }] })
    );
    expect(updated.files.map((f) => f.name).sort()).toEqual(["keep.pdf", "new.png"]);
    const rows = await database.db.select().from(equipmentTypeFiles).where(eq(equipmentTypeFiles.equipmentTypeId, type.id));
    expect(rows.map((r) => r.fileId)).not.toContain(old.id);
    const [stored] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, old.id));
    expect(stored.deletedAt).not.toBeNull();
    expect(fs.existsSync(path.join(files.root, oldStored.storageKey))).toBe(false);
    expect((await updateEquipmentType(ctx, type.id, typeInput())).files).toHaveLength(2);
  });

  it("refuses to delete a file that is not attached, and bad new files, changing nothing", async () => {
    const ctx = ctxFor(manager);
    const type = await createEquipmentType(ctx, typeInput({ newFiles: [{ bytes: pngBytes(4, 4), name: "mine.png" }] }));
    const other = await createEquipmentType(ctx, typeInput({ newFiles: [{ bytes: pngBytes(4, 4), name: "theirs.png" }] }));
    const before = await snapshot();
    await expectFieldError(
      updateEquipmentType(ctx, type.id, typeInput({ deletedFiles: ["00000000-0000-4000-8000-000000000000"] })),
      "deletedFiles",
      "errors.file.deleteFailed"
    );
    await expectFieldError(
      updateEquipmentType(ctx, type.id, typeInput({ deletedFiles: [other.files[0].id] })),
      "deletedFiles",
      "errors.file.deleteFailed"
    );
    await expectFieldError(
      updateEquipmentType(ctx, type.id, typeInput({ deletedFiles: [type.files[0].id, other.files[0].id] })),
      "deletedFiles",
      "errors.file.deleteFailed"
    );
    await expectFieldError(
      updateEquipmentType(ctx, type.id, typeInput({ newFiles: [{ bytes: svgBytes(), name: "a.svg" }] })),
      "newFiles",
      "errors.file.wrongFormat"
    );
    const oversized = new Uint8Array(files.maxBytes + 1);
    oversized.set(pdfBytes());
    await expectFieldError(
      updateEquipmentType(ctx, type.id, typeInput({ newFiles: [{ bytes: oversized, name: "a.pdf" }] })),
      "newFiles",
      "errors.file.tooLarge"
    );
    await expectNothingChanged(before);
  });

  it("answers not found for another entity's or an archived generic equipment, refuses a technician, changing nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id });
    const archived = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, archivedAt: new Date() });
    const before = await snapshot();
    await expect(updateEquipmentType(ctxFor(manager), typeB.id, typeInput())).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      updateEquipmentType(ctxFor(otherManager), type.id, typeInput({ categoryId: categoryB.id, incidentTypes: [] }))
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateEquipmentType(ctxFor(manager), archived.id, typeInput())).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateEquipmentType(ctxFor(technician), type.id, typeInput())).rejects.toBeInstanceOf(ForbiddenError);
    await expect(updateEquipmentType(anonymous(), type.id, typeInput())).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });

  it("validates fields and references, changing nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id });
    const ctx = ctxFor(manager);
    const before = await snapshot();
    await expectFieldError(updateEquipmentType(ctx, type.id, typeInput({ equipmentName: "" })), "equipmentName", NAME_REQUIRED);
    await expectFieldError(
      updateEquipmentType(ctx, type.id, typeInput({ categoryId: undefined as never })),
      "categoryId",
      CATEGORY_REQUIRED
    );
    await expectFieldError(updateEquipmentType(ctx, type.id, typeInput({ tags: ["  "] })), "tags.0", TAG_EMPTY);
    await expectFieldError(updateEquipmentType(ctx, type.id, typeInput({ tags: ["1", "2", "3", "4"] })), "tags", TAG_TOO_MANY);
    await expectFieldError(updateEquipmentType(ctx, type.id, typeInput({ tags: ["w".repeat(21)] })), "tags.0", TAG_TOO_LONG);
    await expectFieldError(updateEquipmentType(ctx, type.id, typeInput({ categoryId: categoryB.id })), "categoryId", CATEGORY_NOT_FOUND);
    await expectFieldError(
      updateEquipmentType(ctx, type.id, typeInput({ incidentTypes: [incidentTypeB.id] })),
      "incidentTypes",
      INCIDENT_TYPE_NOT_FOUND
    );
    await expectNothingChanged(before);
  });
});

describe("archiveEquipmentType", () => {
  it("removes its items from the rooms, archives their identifiers and rejects their open incidents; other types untouched", async () => {
    const db = database.db;
    const type = await createEquipmentTypeRow(db, { entityId: entityA.id, categoryId: categoryA.id, name: "Heater" });
    const sibling = await createEquipmentTypeRow(db, { entityId: entityA.id, categoryId: categoryA.id, name: "Fan" });
    const room1 = await createRoom(db, { entityId: entityA.id });
    const room2 = await createRoom(db, { entityId: entityA.id });
    const heaters = await placeItems(type, [room1, room2]);
    const fans = await placeItems(sibling, [room1]);
    const roomIncident = await createIncident(db, { entityId: entityA.id, roomId: room1.id, status: IncidentStatus.IN_PROGRESS });
    const ids = heaters.items.map((i) => i.id);
    const fanIds = fans.items.map((i) => i.id);
    const fansBefore = { items: await itemRows(fanIds), ids: await identifierRows(fanIds) };
    expect((await itemRows(ids)).filter((i) => i.archivedAt === null)).toHaveLength(2);
    expect((await identifierRows(ids)).filter((r) => r.archivedAt === null)).toHaveLength(2);

    const counts = await archiveEquipmentType(ctxFor(manager), type.id, { confirmName: "Heater" });
    expect(counts).toEqual({ equipmentTypes: 1, equipmentItems: 2, reportIdentifiers: 2, incidentsRejected: 4 });

    expect((await typeRow(type.id)).archivedAt).not.toBeNull();
    expect((await itemRows(ids)).filter((i) => i.archivedAt === null)).toHaveLength(0);
    expect((await identifierRows(ids)).filter((r) => r.archivedAt === null)).toHaveLength(0);
    for (const incident of heaters.incidents) {
      if (isOpen(incident)) await expectRejectedBy(incident, manager);
      else await expectUntouched(incident);
    }
    await expectUntouched(roomIncident);
    expect((await typeRow(sibling.id)).archivedAt).toBeNull();
    expect(await itemRows(fanIds)).toEqual(fansBefore.items);
    expect(await identifierRows(fanIds)).toEqual(fansBefore.ids);
    for (const incident of fans.incidents) await expectUntouched(incident);
    expect((await categoryRow(categoryA.id)).archivedAt).toBeNull();
    await expect(getEquipmentType(ctxFor(manager), type.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("archives without a confirmation (API)", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id });
    expect(await archiveEquipmentType(ctxFor(admin), type.id)).toEqual({
      equipmentTypes: 1,
      equipmentItems: 0,
      reportIdentifiers: 0,
      incidentsRejected: 0,
    });
  });

  it("refuses a wrong confirmation name, archiving nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, name: "Whiteboard" });
    await placeItems(type, [await createRoom(database.db, { entityId: entityA.id })]);
    const before = await snapshot();
    for (const confirmName of ["whiteboard", "White board", ""]) {
      await expectFieldError(archiveEquipmentType(ctxFor(manager), type.id, { confirmName }), "confirmName", WRONG_NAME);
    }
    await expectNothingChanged(before);
  });

  it("answers not found for another entity's or an archived generic equipment, refuses a technician, archiving nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id });
    const archived = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, archivedAt: new Date() });
    const before = await snapshot();
    await expect(archiveEquipmentType(ctxFor(manager), typeB.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveEquipmentType(ctxFor(otherManager), type.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveEquipmentType(ctxFor(manager), archived.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(archiveEquipmentType(ctxFor(technician), type.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(archiveEquipmentType(anonymous(), type.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });
});

describe("addEquipmentTypeTag", () => {
  it("adds a trimmed tag, ignoring one already there (any case)", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, tags: ["Red"] });
    expect((await addEquipmentTypeTag(ctxFor(manager), type.id, "  blue ")).tags).toEqual([{ label: "Red" }, { label: "blue" }]);
    expect((await addEquipmentTypeTag(ctxFor(admin), type.id, "RED")).tags).toEqual([{ label: "Red" }, { label: "blue" }]);
    expect((await addEquipmentTypeTag(ctxFor(admin), type.id, "g".repeat(20))).tags).toHaveLength(3);
    expect((await typeRow(type.id)).tags).toEqual(["Red", "blue", "g".repeat(20)]);
    // A fourth tag is refused, but re-adding one of the three is still fine.
    expect((await addEquipmentTypeTag(ctxFor(manager), type.id, "Blue")).tags).toHaveLength(3);
  });

  it("refuses a fourth tag on label, changing nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, tags: ["a", "b", "c"] });
    const before = await snapshot();
    const error = await rejectionOf(addEquipmentTypeTag(ctxFor(manager), type.id, "d"));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual({ label: [TAG_TOO_MANY] });
    expect((error as ValidationError).messageKey).toBe(TAG_TOO_MANY);
    await expectNothingChanged(before);
  });

  it("refuses an empty or too long tag, changing nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, tags: [] });
    const before = await snapshot();
    for (const [label, key] of [
      ["", TAG_EMPTY],
      ["   ", TAG_EMPTY],
      [undefined, TAG_EMPTY],
      ["x".repeat(21), TAG_TOO_LONG],
    ] as const) {
      const fieldErrors = await fieldErrorsOf(addEquipmentTypeTag(ctxFor(manager), type.id, label));
      expect(Object.values(fieldErrors).flat()).toContain(key);
    }
    await expectNothingChanged(before);
  });

  it("names the label field for an empty or too long tag, as it does for a fourth one", async () => {
    // POST /equipments/type/{id}/tags has one body field, `label`; the fourth-tag error is on it, so
    // the empty and too-long errors should be too (not on the form-level "_form" key).
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, tags: [] });
    await expectFieldError(addEquipmentTypeTag(ctxFor(manager), type.id, ""), "label", TAG_EMPTY);
    await expectFieldError(addEquipmentTypeTag(ctxFor(manager), type.id, "x".repeat(21)), "label", TAG_TOO_LONG);
  });

  it("answers not found for another entity's or an archived generic equipment, refuses a technician, changing nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, tags: [] });
    const archived = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, archivedAt: new Date() });
    const before = await snapshot();
    await expect(addEquipmentTypeTag(ctxFor(manager), typeB.id, "x")).rejects.toBeInstanceOf(NotFoundError);
    await expect(addEquipmentTypeTag(ctxFor(otherManager), type.id, "x")).rejects.toBeInstanceOf(NotFoundError);
    await expect(addEquipmentTypeTag(ctxFor(manager), archived.id, "x")).rejects.toBeInstanceOf(NotFoundError);
    await expect(addEquipmentTypeTag(ctxFor(technician), type.id, "x")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(addEquipmentTypeTag(anonymous(), type.id, "x")).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });
});

describe("removeEquipmentTypeTag", () => {
  it("removes a tag ignoring case and surrounding spaces", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, tags: ["Red", "Blue"] });
    expect((await removeEquipmentTypeTag(ctxFor(manager), type.id, " red ")).tags).toEqual([{ label: "Blue" }]);
    expect((await removeEquipmentTypeTag(ctxFor(admin), type.id, "Blue")).tags).toEqual([]);
    expect((await typeRow(type.id)).tags).toEqual([]);
  });

  it("answers tag not found for an absent tag, changing nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, tags: ["Red"] });
    const before = await snapshot();
    const error = await rejectionOf(removeEquipmentTypeTag(ctxFor(manager), type.id, "Green"));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messageKey).toBe("equipment:errors.tagNotFound");
    await expectNothingChanged(before);
  });

  it("answers not found for another entity's or an archived generic equipment, refuses a technician, changing nothing", async () => {
    const type = await createEquipmentTypeRow(database.db, { entityId: entityA.id, categoryId: categoryA.id, tags: ["x"] });
    const archived = await createEquipmentTypeRow(database.db, {
      entityId: entityA.id,
      categoryId: categoryA.id,
      tags: ["x"],
      archivedAt: new Date(),
    });
    const before = await snapshot();
    await expect(removeEquipmentTypeTag(ctxFor(manager), typeB.id, "b")).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeEquipmentTypeTag(ctxFor(otherManager), type.id, "x")).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeEquipmentTypeTag(ctxFor(manager), archived.id, "x")).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeEquipmentTypeTag(ctxFor(technician), type.id, "x")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeEquipmentTypeTag(anonymous(), type.id, "x")).rejects.toBeInstanceOf(ForbiddenError);
    await expectNothingChanged(before);
  });
});
