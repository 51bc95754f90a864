import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent } from "../../server/heap";

describe("heapGrowingPercent", () => {
  it("defaults to the bounded growth and accepts 0 (V8's own) to 400", () => {
    expect(heapGrowingPercent(undefined)).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent(" ")).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent("0")).toBe(0);
    expect(heapGrowingPercent("150")).toBe(150);
    expect(heapGrowingPercent("400")).toBe(400);
  });

  it("names the variable when the value is not a whole number in range", () => {
    for (const bad of ["-1", "401", "1.5", "sixty", "0x10", "1e9"]) {
      expect(() => heapGrowingPercent(bad)).toThrow(/HEAP_GROWING_PERCENT/);
    }
  });
});
