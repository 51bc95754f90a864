import { describe, expect, it } from "vitest";
import { shownCount } from "./incident-view";

describe("shownCount (the incident view's ?comments= and ?events=)", () => {
  it("shows one page when the address says nothing or too little", () => {
    expect(shownCount(null, 50, 500)).toBe(50);
    expect(shownCount(undefined, 50, 500)).toBe(50);
    expect(shownCount(0, 50, 500)).toBe(50);
    expect(shownCount(10, 50, 500)).toBe(50);
  });
  it('shows what "Show earlier" asked for, never more than the maximum', () => {
    expect(shownCount(100, 50, 500)).toBe(100);
    expect(shownCount(2 ** 31, 50, 500)).toBe(500);
  });
});
