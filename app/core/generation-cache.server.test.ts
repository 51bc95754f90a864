import { describe, expect, it } from "vitest";
import { generationCache, keptReads } from "./generation-cache.server";
import { noteCommittedWrite } from "./write-generation.server";

/** Results kept until the next committed write (decision 031). */
describe("generation cache", () => {
  const counting = () => {
    let calls = 0;
    return { compute: async () => ++calls, calls: () => calls };
  };

  it("answers a kept result until a unit of work commits", async () => {
    const cache = generationCache<number>();
    const c = counting();
    expect(await cache.get("a", c.compute)).toBe(1);
    expect(await cache.get("a", c.compute)).toBe(1);
    noteCommittedWrite();
    expect(await cache.get("a", c.compute)).toBe(2);
    expect(c.calls()).toBe(2);
  });

  it("shares one computation among requests that ask at once", async () => {
    const cache = generationCache<number>();
    const c = counting();
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get("b", c.compute)));
    expect(answers).toEqual([1, 1, 1, 1, 1]);
    expect(c.calls()).toBe(1);
  });

  it("does not keep a result computed while something committed, nor a failure", async () => {
    const cache = generationCache<number>();
    let calls = 0;
    await cache.get("c", async () => {
      calls++;
      noteCommittedWrite();
      return calls;
    });
    expect(await cache.get("c", async () => ++calls)).toBe(2);
    await expect(cache.get("d", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("d", async () => 7)).toBe(7);
  });

  it("holds at most its number of results, and none past their time", async () => {
    const cache = generationCache<number>({ maxEntries: 2, ttlMs: 50 });
    const c = counting();
    await cache.get("x", c.compute);
    await cache.get("y", c.compute);
    await cache.get("z", c.compute); // x leaves
    await cache.get("y", c.compute);
    expect(c.calls()).toBe(3);
    await cache.get("x", c.compute);
    expect(c.calls()).toBe(4);
    await new Promise((r) => setTimeout(r, 60));
    await cache.get("x", c.compute);
    expect(c.calls()).toBe(5);
  });
});

/** The filters' choices and the entity's time zone, kept per database (decision 037). */
describe("kept reads", () => {
  it("keeps one answer per database and key until a unit of work commits", async () => {
    const read = keptReads<{ names: string[] }>();
    const runtime = { db: {} };
    const otherTest = { db: {} };
    let calls = 0;
    const compute = async () => ({ names: [`call ${++calls}`] });
    expect(await read(runtime, "1:en", compute)).toEqual({ names: ["call 1"] });
    expect(await read(runtime, "1:en", compute)).toEqual({ names: ["call 1"] });
    // Another database (another test's) with the same entity id gets its own answer.
    expect(await read(otherTest, "1:en", compute)).toEqual({ names: ["call 2"] });
    expect(await read(runtime, "1:fr-BE", compute)).toEqual({ names: ["call 3"] });
    noteCommittedWrite();
    expect(await read(runtime, "1:en", compute)).toEqual({ names: ["call 4"] });
  });

  it("reads again inside a unit of work, which must see its own writes", async () => {
    const read = keptReads<number>();
    const db = {};
    let calls = 0;
    await read({ db }, "k", async () => ++calls);
    expect(await read({ db, uow: {} }, "k", async () => ++calls)).toBe(2);
    expect(await read({ db, uow: {} }, "k", async () => ++calls)).toBe(3);
    expect(await read({ db }, "k", async () => ++calls)).toBe(1);
  });

  it("hands out a frozen answer, so that no request changes what the others get", async () => {
    const read = keptReads<{ id: number; name: string }[]>();
    const answer = await read({ db: {} }, "k", async () => [{ id: 1, name: "Boiler" }]);
    expect(() => answer.push({ id: 2, name: "Lift" })).toThrow(TypeError);
    expect(() => {
      answer[0]!.name = "Changed";
    }).toThrow(TypeError);
    expect(answer).toEqual([{ id: 1, name: "Boiler" }]);
  });
});
