import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { Priority, Role, UserLanguage } from "~/db/enums";
import { type Building, type Entity, refreshTokens, storedFiles, type User, users } from "~/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { verifyPassword } from "~/modules/auth/password.server";
import type { FileStore } from "~/modules/files/storage.server";
import { createBuilding, createEntity, createUser, DEFAULT_PASSWORD, linkUserTo } from "#tests/factories";
import { pngBytes } from "#tests/factories/files";
import { createTestDatabase } from "#tests/test-db";
import { actorContext, expectFieldError } from "#tests/service-helpers";
import { getAccountSettings, listNotificationBuildings } from "./queries.server";
import { meetsPasswordPolicy, PasswordFormSchema, type UpdateAccountInput } from "./schema";
import { changePassword, setLanguage, updateAccount } from "./service.server";

let database: Database;
let entityA: Entity;
let entityB: Entity;
let buildingA1: Building;
let buildingA2: Building;
let buildingB: Building;
/** A building of entity A that Alice (a technician) is not linked to. */
let buildingA3: Building;
let alice: User;
let bob: User;
let carol: User;
const files: FileStore = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-users-")), maxBytes: 64 * 1024 };

const ctxFor = (user: User, entityId = user.entityId) => actorContext(database.db, user, { entityId, files });

const account = (overrides: Partial<UpdateAccountInput> = {}): UpdateAccountInput => ({
  name: "Alice",
  surname: "Martin",
  language: UserLanguage.FR,
  receiveNotification: true,
  notificationSettings: { priorities: [Priority.CRITICAL, Priority.HIGH, Priority.HIGH], buildingIds: [buildingA2.id, buildingA1.id] },
  ...overrides,
});

async function userRow(id: number) {
  const [row] = await database.db.select().from(users).where(eq(users.id, id));
  return row;
}

beforeAll(async () => {
  database = await createTestDatabase();
  entityA = await createEntity(database.db);
  entityB = await createEntity(database.db);
  buildingA1 = await createBuilding(database.db, { entityId: entityA.id, name: "Alpha" });
  buildingA2 = await createBuilding(database.db, { entityId: entityA.id, name: "Beta" });
  buildingB = await createBuilding(database.db, { entityId: entityB.id, name: "Elsewhere" });
  alice = await createUser(database.db, { entityId: entityA.id, role: Role.TECHNICIAN });
  bob = await createUser(database.db, { entityId: entityA.id, role: Role.ADMINISTRATOR });
  carol = await createUser(database.db, { entityId: entityB.id, role: Role.FACILITY_MANAGER });
  buildingA3 = await createBuilding(database.db, { entityId: entityA.id, name: "Gamma" });
  // Alice reaches A1 through its building and A2 through its facility, not A3 (SPEC.md section 6).
  await linkUserTo(database.db, { entityId: entityA.id, userId: alice.id, buildingId: buildingA1.id });
  await linkUserTo(database.db, { entityId: entityA.id, userId: alice.id, facilityId: buildingA2.facilityId });
  // Carol, a facility manager, reaches her linked building (SPEC.md section 6; decision 022).
  await linkUserTo(database.db, { entityId: entityB.id, userId: carol.id, buildingId: buildingB.id });
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(files.root, { recursive: true, force: true });
});

describe("updateAccount", () => {
  it("saves the signed-in user's own settings, priorities and buildings sorted and unique", async () => {
    const view = await updateAccount(ctxFor(alice), account());
    expect(view).toMatchObject({
      id: alice.id,
      name: "Alice",
      surname: "Martin",
      language: UserLanguage.FR,
      receiveNotification: true,
      notificationSettings: { priorities: [Priority.HIGH, Priority.CRITICAL], buildingIds: [buildingA1.id, buildingA2.id].sort((a, b) => a - b) },
      picture: null,
    });
    const settings = await getAccountSettings(database.db, alice.id, entityA.id);
    expect(settings).toMatchObject({ name: "Alice", language: UserLanguage.FR, receiveNotification: true });
    expect(await getAccountSettings(database.db, alice.id, entityB.id)).toBeNull();
  });

  it("lists the buildings to be notified about: the entity's for an administrator, a technician's linked ones only", async () => {
    const ids = (list: { id: number }[]) => list.map((b) => b.id).sort((a, b) => a - b);
    const all = await listNotificationBuildings(ctxFor(bob));
    expect(ids(all)).toEqual([buildingA1.id, buildingA2.id, buildingA3.id].sort((a, b) => a - b));
    expect(all.every((b) => typeof b.facilityName === "string")).toBe(true);
    expect(ids(await listNotificationBuildings(ctxFor(alice)))).toEqual([buildingA1.id, buildingA2.id].sort((a, b) => a - b));
    expect(ids(await listNotificationBuildings(ctxFor(carol)))).toEqual([buildingB.id]);
    expect(await listNotificationBuildings({ ...ctxFor(alice), actor: null })).toEqual([]);
  });

  it("refuses a technician's building outside their facilities and buildings (not found), changing nothing", async () => {
    const before = await userRow(alice.id);
    const error = await updateAccount(
      ctxFor(alice),
      account({ name: "Changed", notificationSettings: { priorities: [], buildingIds: [buildingA1.id, buildingA3.id] } }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: "BUILDING_NOT_FOUND" });
    expect(await userRow(alice.id)).toEqual(before);
    const admin = await updateAccount(ctxFor(bob), account({ notificationSettings: { priorities: [], buildingIds: [buildingA3.id] } }));
    expect(admin.notificationSettings.buildingIds).toEqual([buildingA3.id]);
  });

  it("stores, replaces and removes the picture", async () => {
    const ctx = ctxFor(alice);
    const first = await updateAccount(ctx, account({ updatePicture: true, newPicture: { bytes: pngBytes(20, 10), name: "me.png" } }));
    expect(first.picture).toMatch(/^\/files\//);
    const kept = await updateAccount(ctx, account({ name: "Alicia" }));
    expect(kept.picture).toBe(first.picture);
    const second = await updateAccount(ctx, account({ updatePicture: true, newPicture: { bytes: pngBytes(12, 12), name: "me2.png" } }));
    expect(second.picture).not.toBe(first.picture);
    const [old] = await database.db.select().from(storedFiles).where(eq(storedFiles.id, first.picture!.slice("/files/".length)));
    expect(old.deletedAt).not.toBeNull();
    const removed = await updateAccount(ctx, account({ updatePicture: true, newPicture: null }));
    expect(removed.picture).toBeNull();
  });

  it("refuses to change another user's account (Forbidden) or to act without a user", async () => {
    const before = await userRow(bob.id);
    await expect(updateAccount(ctxFor(alice), account({ userId: bob.id, name: "Hijacked" }))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(updateAccount({ ...ctxFor(alice), actor: null }, account())).rejects.toBeInstanceOf(ForbiddenError);
    expect(await userRow(bob.id)).toEqual(before);
  });

  it("answers not found for another entity's user or building, changing nothing", async () => {
    const carolBefore = await userRow(carol.id);
    await expect(updateAccount(ctxFor(alice), account({ userId: carol.id }))).rejects.toBeInstanceOf(NotFoundError);
    // A context for entity B with a user of entity A.
    await expect(updateAccount(ctxFor(alice, entityB.id), account())).rejects.toBeInstanceOf(NotFoundError);
    expect(await userRow(carol.id)).toEqual(carolBefore);

    const aliceBefore = await userRow(alice.id);
    await expect(
      updateAccount(ctxFor(alice), account({ name: "Changed", notificationSettings: { priorities: [], buildingIds: [buildingB.id] } })),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await userRow(alice.id)).toEqual(aliceBefore);
  });

  it("names missing or wrong fields with the SPEC messages", async () => {
    const before = await userRow(alice.id);
    const error = await updateAccount(ctxFor(alice), {
      ...account(),
      name: " ",
      surname: "",
      language: 7 as 0,
      notificationSettings: { priorities: [9 as 0], buildingIds: [] },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toMatchObject({
      name: ["settings:validation.name"],
      surname: ["settings:validation.surname"],
      language: ["settings:validation.language"],
      "notificationSettings.priorities.0": ["settings:validation.invalid"],
    });
    await expectFieldError(
      updateAccount(ctxFor(alice), account({ updatePicture: true, newPicture: { bytes: new TextEncoder().encode("%PDF-1.4"), name: "x.pdf" } })),
      "newPicture",
      "settings:files.imageFormat",
    );
    const oversized = new Uint8Array(files.maxBytes + 1);
    oversized.set(pngBytes(4, 4));
    await expectFieldError(
      updateAccount(ctxFor(alice), account({ updatePicture: true, newPicture: { bytes: oversized, name: "big.png" } })),
      "newPicture",
      "settings:files.tooLarge",
    );
    expect(await userRow(alice.id)).toEqual(before);
  });
});

describe("changePassword", () => {
  it("changes the caller's password and signs out their other sessions", async () => {
    const user = await createUser(database.db, { entityId: entityA.id, role: Role.FACILITY_MANAGER });
    const keep = randomUUID();
    const other = randomUUID();
    const expiresAt = new Date(Date.now() + 86_400_000);
    await database.db.insert(refreshTokens).values([
      { entityId: entityA.id, userId: user.id, familyId: keep, tokenHash: randomUUID(), expiresAt },
      { entityId: entityA.id, userId: user.id, familyId: other, tokenHash: randomUUID(), expiresAt },
    ]);
    await changePassword(ctxFor(user), { userId: user.id, oldPassword: DEFAULT_PASSWORD, newPassword: "New-secret-9", keepSessionId: keep });
    const row = await userRow(user.id);
    expect(await verifyPassword(row.passwordHash, "New-secret-9")).toBe(true);
    expect(await verifyPassword(row.passwordHash, DEFAULT_PASSWORD)).toBe(false);
    const tokens = await database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(tokens.find((t) => t.familyId === keep)?.revokedAt).toBeNull();
    expect(tokens.find((t) => t.familyId === other)?.revokedAt).not.toBeNull();
  });

  it("refuses a wrong old password with a field error", async () => {
    const user = await createUser(database.db, { entityId: entityA.id });
    await expectFieldError(
      changePassword(ctxFor(user), { userId: user.id, oldPassword: "Wrong-pass-1!", newPassword: "New-secret-9" }),
      "oldPassword",
      "settings:password.wrongOld",
    );
    expect(await verifyPassword((await userRow(user.id)).passwordHash, DEFAULT_PASSWORD)).toBe(true);
  });

  it("requires every field and a strong new password", async () => {
    const user = await createUser(database.db, { entityId: entityA.id });
    const error = await changePassword(ctxFor(user), { userId: user.id, oldPassword: "", newPassword: "" }).catch((e: unknown) => e);
    expect((error as ValidationError).fieldErrors).toEqual({
      oldPassword: ["settings:validation.required"],
      newPassword: ["settings:validation.required"],
    });
    await expectFieldError(
      changePassword(ctxFor(user), { userId: user.id, oldPassword: DEFAULT_PASSWORD, newPassword: "password" }),
      "newPassword",
      "settings:password.weak",
    );
  });

  it("refuses another user's password (Forbidden) and another entity's user (NotFound)", async () => {
    const before = await userRow(bob.id);
    await expect(
      changePassword(ctxFor(alice), { userId: bob.id, oldPassword: DEFAULT_PASSWORD, newPassword: "New-secret-9" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      changePassword(ctxFor(alice), { userId: carol.id, oldPassword: DEFAULT_PASSWORD, newPassword: "New-secret-9" }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      changePassword({ ...ctxFor(alice), actor: null }, { userId: alice.id, oldPassword: DEFAULT_PASSWORD, newPassword: "New-secret-9" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(await userRow(bob.id)).toEqual(before);
    expect(await verifyPassword((await userRow(carol.id)).passwordHash, DEFAULT_PASSWORD)).toBe(true);
  });
});

describe("password rules", () => {
  it("applies the policy: 8 characters, a special character, a digit, a lower- and an upper-case letter", () => {
    expect(meetsPasswordPolicy("Demo-pass-1!")).toBe(true);
    expect(meetsPasswordPolicy("Élève-2024")).toBe(true);
    expect(meetsPasswordPolicy("Sh-rt1")).toBe(false);
    expect(meetsPasswordPolicy("nouppercase-1")).toBe(false);
    expect(meetsPasswordPolicy("NOLOWERCASE-1")).toBe(false);
    expect(meetsPasswordPolicy("No-digits-here")).toBe(false);
    expect(meetsPasswordPolicy("NoSpecial123")).toBe(false);
    expect(meetsPasswordPolicy("With space 1A")).toBe(false);
  });

  it("the dialog requires old, new and repeat, and the repeat must equal the new password", () => {
    const empty = PasswordFormSchema.safeParse({ oldPassword: "", newPassword: "", repeatPassword: "" });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["oldPassword", "settings:validation.required"],
      ["newPassword", "settings:validation.required"],
      ["repeatPassword", "settings:validation.required"],
    ]);
    const mismatch = PasswordFormSchema.safeParse({ oldPassword: "x", newPassword: "New-secret-9", repeatPassword: "New-secret-8" });
    expect(mismatch.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["repeatPassword", "settings:password.mismatch"]]);
    expect(PasswordFormSchema.safeParse({ oldPassword: "x", newPassword: "New-secret-9", repeatPassword: "New-secret-9" }).success).toBe(true);
  });
});

describe("setLanguage", () => {
  it("stores the caller's language", async () => {
    const user = await createUser(database.db, { entityId: entityA.id });
    expect(await setLanguage(ctxFor(user), { language: UserLanguage.NL })).toEqual({ language: UserLanguage.NL });
    expect((await userRow(user.id)).language).toBe(UserLanguage.NL);
  });

  it("needs a user of the context's entity and a known language", async () => {
    const before = await userRow(alice.id);
    await expect(setLanguage({ ...ctxFor(alice), actor: null }, { language: 0 })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(setLanguage(ctxFor(alice, entityB.id), { language: 2 })).rejects.toBeInstanceOf(NotFoundError);
    await expectFieldError(setLanguage(ctxFor(alice), { language: 5 as 0 }), "language", "settings:validation.language");
    expect(await userRow(alice.id)).toEqual(before);
  });
});
