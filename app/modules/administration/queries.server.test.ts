import { describe, expect, it } from "vitest";
import { withTx } from "~/core/unit-of-work.server";
import { IncidentTypeStatus, Role } from "~/db/enums";
import { apiTokens, auditLog, type Entity, type User, webhookEndpoints } from "~/db/schema";
import { ForbiddenError } from "~/lib/errors";
import { createEntity, createIncidentType, createMaintenanceType, createRoom, createRoomType, createUser } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { setupTestDatabase, setupTwoEntities } from "#tests/test-context";
import type { AuditAction } from "~/core/audit-actions";
import { createCategoriesBulk, createCategory } from "~/modules/equipment/service.server";
import { administrationCounts, auditFilterOptions, configurationCounts, listAuditRows } from "./queries.server";

const database = setupTestDatabase();
const people = setupTwoEntities(database);

const ctxOf = (user: User) => actorContext(database.db, user);

/** Writes an audit row as a verb of `user` would. */
/** `action` as stored: today's names, or a name earlier versions wrote. */
async function audit(user: User | null, entity: Entity, action: string, recordType: string, recordId: number) {
  const ctx = user ? ctxOf(user) : { ...actorContext(database.db, { id: 0, role: Role.ADMINISTRATOR, entityId: entity.id }), actor: null };
  await withTx(ctx, (_tx, effects) => effects.audit({ action: action as AuditAction, recordType, recordId, entityId: entity.id }));
}

describe("the hubs' counts", () => {
  it("count the entity's own records, not another entity's nor archived ones", async () => {
    const db = database.db;
    const before = await configurationCounts(ctxOf(people.admin));
    const adminBefore = await administrationCounts(ctxOf(people.admin));
    await createIncidentType(db, { entityId: people.entity.id, nameEn: "Leak" });
    await createIncidentType(db, { entityId: people.entity.id, nameEn: "Old", status: IncidentTypeStatus.ARCHIVED, archivedAt: new Date() });
    await createMaintenanceType(db, { entityId: people.entity.id, name: "Boilers" });
    await createRoomType(db, { entityId: people.entity.id, name: "Office" });
    await createRoomType(db, { entityId: people.entity.id, name: "Gone", archivedAt: new Date() });
    // Another entity's records count for nobody here.
    await createIncidentType(db, { entityId: people.other.id, nameEn: "Theirs" });
    await createMaintenanceType(db, { entityId: people.other.id, name: "Theirs" });
    await createRoom(db, { entityId: people.other.id });
    await createUser(db, { entityId: people.other.id, role: Role.TECHNICIAN });
    await db.insert(webhookEndpoints).values({ entityId: people.other.id, name: "Theirs", url: "https://93.184.216.34/", events: ["task.done"], secret: "s" });
    await createUser(db, { entityId: people.entity.id, role: Role.TECHNICIAN });
    await createUser(db, { entityId: people.entity.id, role: Role.TECHNICIAN, archivedAt: new Date() });
    await db.insert(webhookEndpoints).values({ entityId: people.entity.id, name: "Ours", url: "https://93.184.216.34/", events: ["task.done"], secret: "s" });
    // Tokens in use count; a revoked or expired one, or another entity's, does not.
    const token = (entityId: number, createdById: number, n: number, more: Partial<typeof apiTokens.$inferInsert> = {}) =>
      db.insert(apiTokens).values({ entityId, createdById, name: `T${n}`, role: Role.ADMINISTRATOR, tokenHash: `hash-${entityId}-${n}`, tokenPrefix: "ct_x", expiresAt: new Date(Date.now() + 86_400_000), ...more });
    await token(people.entity.id, people.admin.id, 1);
    await token(people.entity.id, people.admin.id, 2, { revokedAt: new Date() });
    await token(people.entity.id, people.admin.id, 3, { expiresAt: new Date(Date.now() - 1000) });
    await token(people.other.id, people.otherAdmin.id, 4);
    await audit(people.admin, people.entity, "facility.create", "facility", 1);
    await audit(people.otherAdmin, people.other, "facility.create", "facility", 2);

    const after = await configurationCounts(ctxOf(people.admin));
    expect(after.entityName).toBe(people.entity.name);
    expect(after.incidentTypes - before.incidentTypes).toBe(1);
    expect(after.maintenanceTypes - before.maintenanceTypes).toBe(1);
    expect(after.roomTypes - before.roomTypes).toBe(1);
    expect(after.rooms).toBe(before.rooms);
    const adminAfter = await administrationCounts(ctxOf(people.admin));
    expect(adminAfter.users - adminBefore.users).toBe(1);
    expect(adminAfter.webhooks! - adminBefore.webhooks!).toBe(1);
    expect(adminAfter.auditRecent! - adminBefore.auditRecent!).toBe(1);
    expect(adminAfter.apiTokens! - adminBefore.apiTokens!).toBe(1);
  });

  it("give a manager the users and import/export counts only, and a technician nothing", async () => {
    const counts = await administrationCounts(ctxOf(people.manager));
    expect(counts.users).toBeGreaterThan(0);
    expect(counts).toMatchObject({ webhooks: null, auditRecent: null, apiTokens: null, serviceLevels: null, rates: null });
    expect((await configurationCounts(ctxOf(people.manager))).entityName).toBe(people.entity.name);
    expect(await rejectionOf(administrationCounts(ctxOf(people.technician)))).toBeInstanceOf(ForbiddenError);
    expect(await rejectionOf(configurationCounts(ctxOf(people.technician)))).toBeInstanceOf(ForbiddenError);
  });
});

describe("the audit history", () => {
  it("lists the entity's rows newest first, a page at a time, with who did it, and no other entity's", async () => {
    const entity = await createEntity(database.db);
    const boss = await createUser(database.db, { entityId: entity.id, role: Role.ADMINISTRATOR, name: "Ada", surname: "Boss" });
    for (let i = 1; i <= 5; i++) await audit(boss, entity, "room.update", "room", i);
    await audit(null, entity, "task.generate", "plannedMaintenance", 9);
    await audit(people.otherAdmin, people.other, "room.update", "room", 1);

    const first = await listAuditRows(ctxOf(boss), {}, { size: 4 });
    expect(first.rows.map((r) => r.recordId)).toEqual(["9", "5", "4", "3"]);
    expect(first.rows[0]).toMatchObject({ actorId: null, actorName: null, action: "task.generate" });
    expect(first.rows[1]).toMatchObject({ actorId: boss.id, actorName: "Ada Boss" });
    const second = await listAuditRows(ctxOf(boss), {}, { size: 4, before: first.nextBefore });
    expect(second.rows.map((r) => r.recordId)).toEqual(["2", "1"]);
    expect(second.nextBefore).toBeNull();

    expect((await listAuditRows(ctxOf(boss), { recordType: "plannedMaintenance" })).rows.map((r) => r.recordId)).toEqual(["9"]);
    expect((await listAuditRows(ctxOf(boss), { actorId: boss.id })).rows).toHaveLength(5);
    expect((await listAuditRows(ctxOf(boss), { actorId: people.otherAdmin.id })).rows).toEqual([]);
    expect((await listAuditRows(ctxOf(boss), { from: new Date(Date.now() + 60_000) })).rows).toEqual([]);
    expect((await listAuditRows(ctxOf(boss), { to: new Date(Date.now() + 60_000) })).rows).toHaveLength(6);
    const options = await auditFilterOptions(ctxOf(boss));
    expect(options.recordTypes).toEqual(["plannedMaintenance", "room"]);
    expect(options.actors.map((a) => a.id)).toEqual([boss.id]);

    // Another entity's administrator sees none of it.
    const theirs = await listAuditRows(ctxOf(people.otherAdmin));
    expect(theirs.rows.every((r) => r.recordType !== "plannedMaintenance")).toBe(true);
    const all = await database.db.select({ entityId: auditLog.entityId }).from(auditLog);
    expect(theirs.rows).toHaveLength(all.filter((r) => r.entityId === people.other.id).length);
  });

  it("files equipment categories under one kind, imported or edited one by one, and the rows written before too", async () => {
    const db = database.db;
    const entity = await createEntity(db);
    const boss = await createUser(db, { entityId: entity.id, role: Role.ADMINISTRATOR });
    const single = await createCategory(ctxOf(boss), { categoryName: "Heating", tags: [] });
    const [imported] = await createCategoriesBulk(ctxOf(boss), [{ categoryName: "Lighting", tags: [] }]);
    // A row of an import made before the kinds were one ("category").
    await audit(boss, entity, "createCategory", "category", 77);
    expect((await auditFilterOptions(ctxOf(boss))).recordTypes).toEqual(["equipmentCategory"]);
    const rows = (await listAuditRows(ctxOf(boss), { recordType: "equipmentCategory" })).rows;
    expect(rows.map((r) => [r.recordId, r.recordType, r.action])).toEqual([
      ["77", "equipmentCategory", "equipmentCategory.create"],
      [String(imported), "equipmentCategory", "equipmentCategory.create"],
      [String(single.id), "equipmentCategory", "equipmentCategory.create"],
    ]);
  });

  it("is for administrators only", async () => {
    for (const user of [people.manager, people.technician]) {
      expect(await rejectionOf(listAuditRows(ctxOf(user)))).toBeInstanceOf(ForbiddenError);
      expect(await rejectionOf(auditFilterOptions(ctxOf(user)))).toBeInstanceOf(ForbiddenError);
    }
  });
});
