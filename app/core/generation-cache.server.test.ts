import { describe, expect, it } from "vitest";
import { generationCache } from "./generation-cache.server";
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
