import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { createEntity, createNotification, createUser } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { countNotifications } from "./queries.server";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("countNotifications", () => {
  it("counts a user's notifications and the unread ones", async () => {
    const { db } = database;
    const entity = await createEntity(db);
    const user = await createUser(db, { entityId: entity.id });
    const colleague = await createUser(db, { entityId: entity.id });
    await createNotification(db, { entityId: entity.id, userIds: [user.id, colleague.id] });
    await createNotification(db, { entityId: entity.id, userIds: [user.id] });
    await createNotification(db, { entityId: entity.id, userIds: [user.id], readAt: new Date() });
    await createNotification(db, { entityId: entity.id, userIds: [colleague.id] });

    expect(await countNotifications(db, entity.id, user.id)).toEqual({ total: 3, unread: 2 });
    expect(await countNotifications(db, entity.id, colleague.id)).toEqual({ total: 2, unread: 2 });
  });

  it("answers zero for a user without notifications", async () => {
    const { db } = database;
    const entity = await createEntity(db);
    const user = await createUser(db, { entityId: entity.id });
    expect(await countNotifications(db, entity.id, user.id)).toEqual({ total: 0, unread: 0 });
  });

  it("never counts another entity's notifications", async () => {
    const { db } = database;
    const mine = await createEntity(db);
    const other = await createEntity(db);
    const user = await createUser(db, { entityId: mine.id });
    const stranger = await createUser(db, { entityId: other.id });
    await createNotification(db, { entityId: mine.id, userIds: [user.id] });
    await createNotification(db, { entityId: other.id, userIds: [stranger.id] });
    await createNotification(db, { entityId: other.id, userIds: [stranger.id], readAt: new Date() });

    expect(await countNotifications(db, mine.id, user.id)).toEqual({ total: 1, unread: 1 });
    // Asking for the user under another entity (a forged or stale entity id) finds nothing.
    expect(await countNotifications(db, other.id, user.id)).toEqual({ total: 0, unread: 0 });
    expect(await countNotifications(db, mine.id, stranger.id)).toEqual({ total: 0, unread: 0 });
  });
});
