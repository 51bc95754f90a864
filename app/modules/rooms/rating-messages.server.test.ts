import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "~/core/context.server";
import type { Database } from "~/db/client.server";
import { ValidationError } from "~/lib/errors";
import { entityWithManager } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";
import { getRoomType } from "./queries.server";
import { createRoomType, createRoomTypesBulk, updateRoomType } from "./service.server";

/**
 * A room type's rating messages (SPEC.md section 3, roomTypeRatingMessages) are set and changed by the
 * room type verbs (the form and REST) and by an import, and read back: one per language (English 0,
 * French 1, Dutch 2), a blank one being none.
 */
let database: Database;
let ctx: ServiceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ ctx } = await entityWithManager(database.db));
});

afterAll(async () => {
  await database?.close();
});

describe("room type rating messages", () => {
  it("are stored on create, blank ones dropped, and replaced on update", async () => {
    const made = await createRoomType(ctx, {
      roomTypeName: "Meeting room",
      tags: [],
      roomTypeRatingMessages: [
        { language: 0, message: " How was your meeting room? " },
        { language: 1, message: "" },
        { language: 2, message: "Hoe was uw vergaderzaal?" },
      ],
    });
    expect((await getRoomType(ctx, made.id)).roomTypeRatingMessages).toEqual([
      { language: 0, message: "How was your meeting room?" },
      { language: 2, message: "Hoe was uw vergaderzaal?" },
    ]);
    await updateRoomType(ctx, made.id, { roomTypeName: "Meeting room", tags: [], roomTypeRatingMessages: [{ language: 1, message: "Comment était votre salle ?" }] });
    expect((await getRoomType(ctx, made.id)).roomTypeRatingMessages).toEqual([{ language: 1, message: "Comment était votre salle ?" }]);
  });

  it("are none when not given", async () => {
    const made = await createRoomType(ctx, { roomTypeName: "Store", tags: [] });
    expect((await getRoomType(ctx, made.id)).roomTypeRatingMessages).toEqual([]);
  });

  it("refuse an unknown language and a message over 200 characters", async () => {
    await expect(createRoomType(ctx, { roomTypeName: "Hall", tags: [], roomTypeRatingMessages: [{ language: 7, message: "Hi?" }] })).rejects.toBeInstanceOf(ValidationError);
    await expect(createRoomType(ctx, { roomTypeName: "Hall", tags: [], roomTypeRatingMessages: [{ language: 0, message: "x".repeat(201) }] })).rejects.toBeInstanceOf(ValidationError);
  });

  it("are stored by an import", async () => {
    const [id] = await createRoomTypesBulk(ctx, [
      { roomTypeName: "Kitchen", tags: ["food"], roomTypeRatingMessages: [{ language: 0, message: "How clean is this kitchen?" }, { language: 1, message: "" }] },
    ]);
    expect((await getRoomType(ctx, id)).roomTypeRatingMessages).toEqual([{ language: 0, message: "How clean is this kitchen?" }]);
  });
});
