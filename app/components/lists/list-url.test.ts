import { describe, expect, it } from "vitest";
import { hiddenParams, listHref, pageHref, pageInfo, sortHref } from "./list-url";

const at = (search: string) => ({ pathname: "/facilities", search });

describe("list URLs", () => {
  it("sets and removes parameters, keeping the others", () => {
    expect(listHref(at("?tab=buildings&q=a"), { page: 2 })).toBe("/facilities?tab=buildings&q=a&page=2");
    expect(listHref(at("?tab=buildings&page=3"), { page: null })).toBe("/facilities?tab=buildings");
    expect(listHref(at("?page=3"), { page: null })).toBe("/facilities");
  });

  it("sorts another column ascending and flips the sorted one, back to page 1", () => {
    const location = at("?tab=buildings&facilityId=4&page=3&size=50&sort=name&dir=asc");
    expect(sortHref(location, "city", { sort: "name", dir: "asc" })).toBe(
      "/facilities?tab=buildings&facilityId=4&size=50&sort=city&dir=asc",
    );
    expect(sortHref(location, "name", { sort: "name", dir: "asc" })).toBe(
      "/facilities?tab=buildings&facilityId=4&size=50&sort=name&dir=desc",
    );
    expect(sortHref(at(""), "name", { sort: "name", dir: "desc" })).toBe("/facilities?sort=name&dir=asc");
  });

  it("links pages, page 1 without the parameter", () => {
    expect(pageHref(at("?q=x&page=2"), 1)).toBe("/facilities?q=x");
    expect(pageHref(at("?q=x"), 3)).toBe("/facilities?q=x&page=3");
  });

  it("computes pages and the shown range", () => {
    expect(pageInfo({ total: 73, page: 2, size: 25, count: 25 })).toEqual({ pages: 3, from: 26, to: 50, previous: 1, next: 3 });
    expect(pageInfo({ total: 73, page: 3, size: 25, count: 23 })).toEqual({ pages: 3, from: 51, to: 73, previous: 2, next: null });
    expect(pageInfo({ total: 0, page: 1, size: 25, count: 0 })).toEqual({ pages: 1, from: 0, to: 0, previous: null, next: null });
    // A page past the end steps back to the last page.
    expect(pageInfo({ total: 30, page: 9, size: 25, count: 0 })).toMatchObject({ pages: 2, previous: 2, next: null });
    // Every row on one page.
    expect(pageInfo({ total: 7, page: 1, size: null, count: 7 })).toEqual({ pages: 1, from: 1, to: 7, previous: null, next: null });
  });

  it("repeats the other parameters of a GET form", () => {
    expect(hiddenParams("?tab=rooms&size=50&page=2&q=a", ["size", "page"])).toEqual([
      ["tab", "rooms"],
      ["q", "a"],
    ]);
  });
});
