import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { Role } from "~/db/enums";
import { type Entity, entities, storedFiles, type User } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import type { FileStore } from "~/modules/files/storage.server";
import { createEntity, createUser } from "#tests/factories";
import { pngBytes } from "#tests/factories/files";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, expectFieldError, rejectionOf } from "#tests/service-helpers";
import { type UpdateEntityInput, decodeDataUrl } from "./schema";
import { getEntity, getExplanatorySticker, updateEntity, updateExplanatorySticker } from "./service.server";

let database: Database;
let entityA: Entity;
let entityB: Entity;
let admin: User;
let manager: User;
let technician: User;
let otherAdmin: User;
const files: FileStore = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-entities-")), maxBytes: 64 * 1024 };

const ctxFor = (user: User) => actorContext(database.db, user, { files });

const address = {
  streetName: "Rue Haute",
  streetNumber: "12",
  suffix: "b",
  buildingFloor: "2nd floor",
  additionalInfo: "Back entrance",
  postalCode: "1000",
  city: "Brussels",
  country: "BE" as const,
};

function validInput(id: number, overrides: Partial<UpdateEntityInput> = {}): UpdateEntityInput {
  return {
    id,
    name: "Acme Facilities",
    vatNumber: "BE0123456789",
    address,
    billingSameAsAddress: true,
    billingAddress: null,
    greetingsMessages: [
      { language: 0, message: "Hello" },
      { language: 1, message: "Bonjour" },
      { language: 2, message: "Hallo" },
    ],
    templateColor: "#112233",
    templateTextColor: "#FFFFFF",
    ...overrides,
  };
}

async function entityRow(id: number) {
  const [row] = await database.db.select().from(entities).where(eq(entities.id, id));
  return row;
}

async function liveFileCount(entityId: number) {
  const rows = await database.db
    .select({ id: storedFiles.id })
    .from(storedFiles)
    .where(and(eq(storedFiles.entityId, entityId), isNull(storedFiles.deletedAt)));
  return rows.length;
}

const fileIdOf = (url: string | null) => url?.replace("/files/", "") ?? null;

beforeAll(async () => {
  database = await createTestDatabase();
  entityA = await createEntity(database.db, { name: "Entity A" });
  entityB = await createEntity(database.db, { name: "Entity B", templateColor: "#7c2d12" });
  admin = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  manager = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
  technician = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
  otherAdmin = await createUser(database.db, { entityId: entityB.id, role: Role.ADMINISTRATOR });
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(files.root, { recursive: true, force: true });
});

describe("getEntity", () => {
  it("shows the entity to any member, in the SPEC field names", async () => {
    const view = await getEntity(ctxFor(technician), entityA.id);
    expect(view).toMatchObject({
      id: entityA.id,
      name: "Entity A",
      vatNumber: entityA.vatNumber,
      billingSameAsAddress: true,
      logo: null,
      templateColor: "#1e3a8a",
      templateTextColor: "#ffffff",
    });
    expect(view.greetingsMessages.map((g) => g.language)).toEqual([0, 1, 2]);
    expect(view.address.city).toBe("Brussels");
    expect(view.billingAddress).toEqual(view.address);
  });

  it("answers not found for another entity's id", async () => {
    await expect(getEntity(ctxFor(technician), entityB.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getEntity(ctxFor(otherAdmin), entityA.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("updateEntity", () => {
  it("saves every field for an administrator, colours in lower case", async () => {
    const view = await updateEntity(ctxFor(admin), validInput(entityA.id));
    expect(view).toMatchObject({
      name: "Acme Facilities",
      vatNumber: "BE0123456789",
      address,
      billingAddress: address,
      billingSameAsAddress: true,
      templateColor: "#112233",
      templateTextColor: "#ffffff",
      greetingsMessages: [
        { language: 0, message: "Hello" },
        { language: 1, message: "Bonjour" },
        { language: 2, message: "Hallo" },
      ],
    });
    const row = await entityRow(entityA.id);
    expect(row).toMatchObject({ name: "Acme Facilities", greetingFr: "Bonjour", templateColor: "#112233", suffix: "b" });
  });

  it("saves a separate billing address for a facility manager", async () => {
    const billingAddress = { streetName: "Billing St", streetNumber: "9", postalCode: "75001", city: "Paris", country: "FR" as const };
    const view = await updateEntity(ctxFor(manager), validInput(entityA.id, { billingSameAsAddress: false, billingAddress }));
    expect(view.billingSameAsAddress).toBe(false);
    expect(view.billingAddress).toEqual({ ...billingAddress, suffix: null, buildingFloor: null, additionalInfo: null });
    const row = await entityRow(entityA.id);
    expect(row).toMatchObject({ billingCity: "Paris", billingCountry: "FR", billingSameAsAddress: false });
  });

  it("refuses a technician, changing nothing", async () => {
    const before = await entityRow(entityA.id);
    await expect(updateEntity(ctxFor(technician), validInput(entityA.id, { name: "Hacked" }))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(updateEntity({ ...ctxFor(admin), actor: null }, validInput(entityA.id))).rejects.toBeInstanceOf(ForbiddenError);
    expect(await entityRow(entityA.id)).toEqual(before);
  });

  it("answers not found for another entity's id, changing nothing", async () => {
    const before = await entityRow(entityB.id);
    await expect(updateEntity(ctxFor(admin), validInput(entityB.id, { name: "Taken over" }))).rejects.toBeInstanceOf(NotFoundError);
    // A context pointing at another tenant than the actor's own does not reach it either.
    await expect(updateEntity({ ...ctxFor(admin), entityId: 999_999 }, validInput(999_999))).rejects.toBeInstanceOf(NotFoundError);
    expect(await entityRow(entityB.id)).toEqual(before);
  });

  it("stores a square logo, replaces it and removes it", async () => {
    const ctx = ctxFor(admin);
    const first = await updateEntity(ctx, validInput(entityA.id, { updateLogo: true, newLogo: { bytes: pngBytes(32, 32), name: "logo.png" } }));
    expect(first.logo).toMatch(/^\/files\/[0-9a-f-]{36}$/);
    const firstId = fileIdOf(first.logo)!;
    expect(fs.existsSync(path.join(files.root, String(entityA.id), firstId))).toBe(true);

    // Without updateLogo the logo stays.
    const kept = await updateEntity(ctx, validInput(entityA.id, { name: "Kept logo" }));
    expect(kept.logo).toBe(first.logo);

    const second = await updateEntity(ctx, validInput(entityA.id, { updateLogo: true, newLogo: { bytes: pngBytes(48, 48), name: "new.png" } }));
    expect(second.logo).not.toBe(first.logo);
    const [old] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, firstId));
    expect(old.deletedAt).not.toBeNull();
    expect(fs.existsSync(path.join(files.root, String(entityA.id), firstId))).toBe(false);

    const removed = await updateEntity(ctx, validInput(entityA.id, { updateLogo: true, newLogo: null }));
    expect(removed.logo).toBeNull();
    expect((await entityRow(entityA.id)).logoFileId).toBeNull();
  });

  it("accepts a logo sent as a base64 data URL", async () => {
    const dataUrl = `data:image/png;base64,${Buffer.from(pngBytes(16, 16)).toString("base64")}`;
    const bytes = decodeDataUrl(dataUrl);
    expect(bytes).not.toBeNull();
    const view = await updateEntity(ctxFor(admin), validInput(entityA.id, { updateLogo: true, newLogo: { bytes: bytes!, name: "logo" } }));
    expect(view.logo).not.toBeNull();
    expect(decodeDataUrl("data:image/png;base64,***")).toBeNull();
    expect(decodeDataUrl("not a data url")).toBeNull();
  });

  it("refuses a logo that is not square, of a wrong format or too large, storing nothing", async () => {
    const ctx = ctxFor(admin);
    const before = await entityRow(entityA.id);
    const count = await liveFileCount(entityA.id);
    const logo = (bytes: Uint8Array) => validInput(entityA.id, { name: "Changed", updateLogo: true, newLogo: { bytes, name: "x" } });
    await expectFieldError(updateEntity(ctx, logo(pngBytes(40, 20))), "newLogo", "settings:files.notSquare");
    await expectFieldError(updateEntity(ctx, logo(new TextEncoder().encode("%PDF-1.4 tiny"))), "newLogo", "settings:files.logoFormat");
    const gif = new Uint8Array([...new TextEncoder().encode("GIF89a"), 1, 0, 1, 0, 0, 0, 0]);
    await expectFieldError(updateEntity(ctx, logo(gif)), "newLogo", "settings:files.logoFormat");
    const oversized = new Uint8Array(files.maxBytes + 1);
    oversized.set(pngBytes(8, 8));
    await expectFieldError(updateEntity(ctx, logo(oversized)), "newLogo", "settings:files.tooLarge");
    await expectFieldError(updateEntity(ctx, logo(new Uint8Array())), "newLogo", "settings:files.invalidData");
    expect(await entityRow(entityA.id)).toEqual(before);
    expect(await liveFileCount(entityA.id)).toBe(count);
  });

  it("names every missing or wrong field with the SPEC messages", async () => {
    const ctx = ctxFor(admin);
    const before = await entityRow(entityA.id);
    const blankAddress = { streetName: " ", streetNumber: "", postalCode: "", city: "", country: "" } as unknown as UpdateEntityInput["address"];
    const error = await updateEntity(
      ctx,
      validInput(entityA.id, {
        name: "  ",
        vatNumber: "",
        address: blankAddress,
        billingSameAsAddress: false,
        billingAddress: { country: "XX" },
        greetingsMessages: [
          { language: 0, message: "" },
          { language: 2, message: "Hallo" },
        ],
        templateColor: "blue",
        templateTextColor: "",
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const fieldErrors = (error as ValidationError).fieldErrors!;
    expect(fieldErrors).toMatchObject({
      name: ["settings:validation.entityName"],
      vatNumber: ["settings:validation.required"],
      "address.streetName": ["settings:validation.required"],
      "address.streetNumber": ["settings:validation.required"],
      "address.postalCode": ["settings:validation.required"],
      "address.city": ["settings:validation.required"],
      "address.country": ["settings:validation.country"],
      "billingAddress.streetName": ["settings:validation.required"],
      "billingAddress.streetNumber": ["settings:validation.required"],
      "billingAddress.postalCode": ["settings:validation.required"],
      "billingAddress.city": ["settings:validation.required"],
      "billingAddress.country": ["settings:validation.country"],
      "greetingsMessages.0.message": ["settings:validation.required"],
      "greetingsMessages.1.message": ["settings:validation.required"],
      templateColor: ["settings:validation.color"],
      templateTextColor: ["settings:validation.required"],
    });
    expect(await entityRow(entityA.id)).toEqual(before);
  });

  it("sets the time zone to a known IANA zone, keeps it when none is sent, refuses an unknown one", async () => {
    const zoned = await createEntity(database.db);
    const zonedAdmin = await createUser(database.db, { entityId: zoned.id, role: Role.ADMINISTRATOR });
    const ctx = actorContext(database.db, zonedAdmin, { files });
    expect((await getEntity(ctx, zoned.id)).timeZone).toBe("Europe/Brussels");

    const saved = await updateEntity(ctx, validInput(zoned.id, { timeZone: "America/New_York" }));
    expect(saved.timeZone).toBe("America/New_York");
    expect((await entityRow(zoned.id)).timeZone).toBe("America/New_York");
    // Missing (a REST client that does not know the field): the zone stays.
    expect((await updateEntity(ctx, validInput(zoned.id, { name: "Renamed" }))).timeZone).toBe("America/New_York");
    expect((await updateEntity(ctx, validInput(zoned.id, { timeZone: "UTC" }))).timeZone).toBe("UTC");

    for (const unknown of ["Mars/Olympus_Mons", "america/new_york", "Europe/Brussels/Extra", "+01:00", "", "x".repeat(65), "Europe/Brussels\u0000"]) {
      await expectFieldError(updateEntity(ctx, validInput(zoned.id, { timeZone: unknown })), "timeZone", "settings:validation.timeZone");
    }
    expect((await entityRow(zoned.id)).timeZone).toBe("UTC");
    // The same refusals apply to another role and another entity first.
    expect(await rejectionOf(updateEntity(actorContext(database.db, technician, { files }), validInput(entityA.id, { timeZone: "America/New_York" })))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(updateEntity(ctx, validInput(entityA.id, { timeZone: "America/New_York" })))).toBeInstanceOf(NotFoundError);
    expect((await entityRow(entityA.id)).timeZone).toBe("Europe/Brussels");
  });

  it("sets the warranty reminder days from 1 to 365, keeps them when none are sent, refuses others", async () => {
    const entity = await createEntity(database.db);
    const entityAdmin = await createUser(database.db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const ctx = actorContext(database.db, entityAdmin, { files });
    expect((await getEntity(ctx, entity.id)).warrantyReminderDays).toBe(30);
    expect((await updateEntity(ctx, validInput(entity.id, { warrantyReminderDays: 45 }))).warrantyReminderDays).toBe(45);
    expect((await updateEntity(ctx, validInput(entity.id, { name: "Renamed" }))).warrantyReminderDays).toBe(45);
    for (const wrong of [0, 366, 2.5]) {
      await expectFieldError(updateEntity(ctx, validInput(entity.id, { warrantyReminderDays: wrong })), "warrantyReminderDays", "settings:validation.warrantyReminderDays");
    }
    expect((await entityRow(entity.id)).warrantyReminderDays).toBe(45);
    expect(await rejectionOf(updateEntity(ctx, validInput(entityA.id, { warrantyReminderDays: 7 })))).toBeInstanceOf(NotFoundError);
    expect((await entityRow(entityA.id)).warrantyReminderDays).toBe(30);
  });

  it("does not ask for the billing address when it is the same as the address", async () => {
    const view = await updateEntity(ctxFor(admin), validInput(entityA.id, { billingSameAsAddress: true, billingAddress: { streetName: "" } }));
    expect(view.billingSameAsAddress).toBe(true);
  });
});

describe("explanatory sticker", () => {
  it("is read by any member and replaced or removed by a manager; its size is only a suggestion", async () => {
    expect(await getExplanatorySticker(ctxFor(technician), entityA.id)).toEqual({
      explanatorySticker: null,
      suggestedWidth: 172,
      suggestedHeight: 296,
    });
    const saved = await updateExplanatorySticker(ctxFor(manager), {
      id: entityA.id,
      newExplanatorySticker: { bytes: pngBytes(172, 296), name: "sticker.png" },
    });
    expect(saved.explanatorySticker).toMatch(/^\/files\//);
    const other = await updateExplanatorySticker(ctxFor(manager), {
      id: entityA.id,
      newExplanatorySticker: { bytes: pngBytes(100, 50), name: "wide.png" },
    });
    expect(other.explanatorySticker).not.toBe(saved.explanatorySticker);
    const [old] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, fileIdOf(saved.explanatorySticker)!));
    expect(old.deletedAt).not.toBeNull();
    expect((await getExplanatorySticker(ctxFor(technician), entityA.id)).explanatorySticker).toBe(other.explanatorySticker);
    const removed = await updateExplanatorySticker(ctxFor(admin), { id: entityA.id, newExplanatorySticker: null });
    expect(removed.explanatorySticker).toBeNull();
  });

  it("refuses a technician and another entity's id, changing nothing", async () => {
    const sticker = { bytes: pngBytes(10, 10), name: "s.png" };
    await expect(updateExplanatorySticker(ctxFor(technician), { id: entityA.id, newExplanatorySticker: sticker })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    const before = await entityRow(entityB.id);
    await expect(updateExplanatorySticker(ctxFor(admin), { id: entityB.id, newExplanatorySticker: sticker })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(getExplanatorySticker(ctxFor(admin), entityB.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await entityRow(entityB.id)).toEqual(before);
  });

  it("refuses a file that is not an image or too large", async () => {
    const ctx = ctxFor(admin);
    await expectFieldError(
      updateExplanatorySticker(ctx, { id: entityA.id, newExplanatorySticker: { bytes: new TextEncoder().encode("hello"), name: "a.txt" } }),
      "newExplanatorySticker",
      "settings:files.imageFormat",
    );
    const oversized = new Uint8Array(files.maxBytes + 1);
    oversized.set(pngBytes(8, 8));
    await expectFieldError(
      updateExplanatorySticker(ctx, { id: entityA.id, newExplanatorySticker: { bytes: oversized, name: "big.png" } }),
      "newExplanatorySticker",
      "settings:files.tooLarge",
    );
  });
});
