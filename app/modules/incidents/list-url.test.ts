import { describe, expect, it } from "vitest";
import { activeFilterCount, NO_FILTERS, parseIncidentFilters } from "./filters";
import { backHref, boardCursors, clearFiltersHref, columnHref, filtersPanelOpen, parseView, savedFilterQuery, viewHref, withParam } from "./list-url";

const params = (query: string) => new URLSearchParams(query);

describe("the addresses of /incidents", () => {
  it("reads the view: the board when asked, else the table", () => {
    expect(parseView(params("view=board"))).toBe("board");
    expect(parseView(params("view=table"))).toBe("table");
    expect(parseView(params("view=kanban"))).toBe("table");
    expect(parseView(params(""))).toBe("table");
  });

  it("keeps the filters, sort, size and view in the cookie's query, not the page, cursors or picker searches", () => {
    const saved = savedFilterQuery(params("status=0&status=1&q=leak&page=3&after2=abc&buildingQ=annex&sort=priority&dir=asc&size=50&view=board&room=&tag=wifi"));
    expect(saved).toBe("view=board&status=0&status=1&tag=wifi&q=leak&sort=priority&dir=asc&size=50");
    expect(savedFilterQuery(params("page=2&buildingAfter=x"))).toBe("");
    // Too long to keep in a cookie: nothing is kept.
    expect(savedFilterQuery(params(`q=${"x".repeat(2000)}`))).toBe("");
  });

  it("reads the board's cursors per column, ignoring malformed ones and unknown columns", () => {
    expect(boardCursors(params("after0=WyIyMDI2Il0&after2=abc_-1&after4=zzz&after1=bad%20value"))).toEqual({ 0: "WyIyMDI2Il0", 2: "abc_-1" });
  });

  it("switches the view keeping the filters and sort, dropping the page and cursors", () => {
    expect(viewHref("?status=1&sort=title&dir=asc&page=4&after1=abc&view=table", "board")).toBe("/incidents?status=1&sort=title&dir=asc&view=board");
    expect(viewHref("", "table")).toBe("/incidents?view=table");
  });

  it("pages one column of the board and goes back to its first cards", () => {
    expect(columnHref("?view=board&q=leak&after1=aaa", 2, "bbb")).toBe("/incidents?view=board&q=leak&after1=aaa&after2=bbb");
    expect(columnHref("?view=board&q=leak&after2=bbb&column=2", 2, null)).toBe("/incidents?view=board&q=leak");
  });

  it("clears the filters of a view, and goes back to the same list after an action", () => {
    expect(clearFiltersHref("board")).toBe("/incidents?view=board&reset=1");
    expect(backHref("?index&status=0&page=2&_data=routes%2Fincidents")).toBe("/incidents?status=0&page=2");
    expect(backHref("")).toBe("/incidents");
  });

  it("opens the More filters panel when asked, when one of its filters is set or its building picker searched", () => {
    const open = (query: string) => filtersPanelOpen(params(query), parseIncidentFilters(params(query)));
    expect(open("view=table&status=1&q=leak")).toBe(false);
    expect(open("filters=1")).toBe(true);
    expect(open("filters=0")).toBe(false);
    for (const query of ["assignee=me", "type=3", "facility=2", "building=4", "room=5", "tag=wifi", "from=2026-01-01", "to=2026-01-31", "buildingQ=annex", "buildingAfter=abc"]) {
      expect(open(query), query).toBe(true);
    }
    expect(filtersPanelOpen(params("buildingQ=%20"), NO_FILTERS)).toBe(false);
  });

  it("counts the filters set for the phone's Filters summary: each field once, whatever its number of values", () => {
    const count = (query: string) => activeFilterCount(parseIncidentFilters(params(query)));
    expect(count("")).toBe(0);
    expect(count("view=board&sort=priority&dir=asc&size=50&page=2&filters=1")).toBe(0);
    expect(count("status=1")).toBe(1);
    expect(count("status=0&status=1&priority=none&priority=3")).toBe(2);
    expect(count("q=leak&assignee=me&type=3&facility=2&building=4&room=5&tag=wifi&tag=door&from=2026-01-01&to=2026-01-31")).toBe(9);
  });

  it("links to the same list with the panel open, or the bulk form's everyone, and leaves them out of the cookie and after an action", () => {
    expect(withParam("?status=1&page=2", "filters", "1")).toBe("/incidents?status=1&page=2&filters=1");
    expect(withParam("?status=1&choices=assignees&filters=1", "bulk", "assignee")).toBe("/incidents?status=1&filters=1&bulk=assignee");
    expect(savedFilterQuery(params("status=1&filters=1&bulk=assignee&choices=assignees"))).toBe("status=1");
    expect(backHref("?status=1&filters=1&bulk=assignee&choices=assignees")).toBe("/incidents?status=1&filters=1");
    expect(viewHref("?status=1&filters=1&bulk=assignee", "board")).toBe("/incidents?status=1&filters=1&view=board");
  });
});
