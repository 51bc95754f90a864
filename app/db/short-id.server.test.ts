import { createEntity } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./client.server";
import { nextShortId, reserveShortIds } from "./short-id.server";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("nextShortId", () => {
  it("hands out distinct consecutive numbers to concurrent callers, per entity and kind", async () => {
    const { db } = database;
    const a = await createEntity(db, { name: "A" });
    const b = await createEntity(db, { name: "B" });

    const [incidentsA, incidentsB, roomsA] = await Promise.all([
      Promise.all(range(1, 25).map(() => nextShortId(db, a.id, "incident"))),
      Promise.all(range(1, 10).map(() => nextShortId(db, b.id, "incident"))),
      Promise.all(range(1, 5).map(() => nextShortId(db, a.id, "room"))),
    ]);

    expect([...incidentsA].sort((x, y) => x - y)).toEqual(range(1, 25));
    expect([...incidentsB].sort((x, y) => x - y)).toEqual(range(1, 10));
    expect([...roomsA].sort((x, y) => x - y)).toEqual(range(1, 5));
    expect(await nextShortId(db, a.id, "facility")).toBe(1);
    expect(await nextShortId(db, a.id, "incident")).toBe(26);
  });

  it("rolls back with the transaction that took the number", async () => {
    const { db } = database;
    const entity = await createEntity(db);
    expect(await nextShortId(db, entity.id, "building")).toBe(1);
    await expect(
      db.transaction(async (tx) => {
        expect(await nextShortId(tx, entity.id, "building")).toBe(2);
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await nextShortId(db, entity.id, "building")).toBe(2);
  });
});

describe("reserveShortIds", () => {
  it("reserves a range and returns its last number; later numbers continue after it", async () => {
    const { db } = database;
    const entity = await createEntity(db);
    expect(await nextShortId(db, entity.id, "incident")).toBe(1);
    expect(await reserveShortIds(db, entity.id, "incident", 100)).toBe(101);
    expect(await nextShortId(db, entity.id, "incident")).toBe(102);
    await expect(reserveShortIds(db, entity.id, "incident", 0)).rejects.toThrow(RangeError);
  });
});
