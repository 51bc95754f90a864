import { describe, expect, it } from "vitest";
import { bulkIds, postedStatus } from "./incident-list.server";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("the posts of /incidents", () => {
  it("reads the bulk form's ids: the checked rows, or the page's ids in one field with Select all", () => {
    expect(bulkIds(form([["ids", "12"], ["ids", "7"], ["pageIds", "12,11,7"]]))).toEqual([12, 7]);
    expect(bulkIds(form([["allOnPage", "1"], ["ids", "12"], ["pageIds", "12,11,7"]]))).toEqual([12, 11, 7]);
    // What is not an id is passed on as it came: the verb's schema refuses it.
    expect(bulkIds(form([["allOnPage", "1"], ["pageIds", "12,x"]]))).toEqual([12, "x"]);
    expect(bulkIds(form([]))).toEqual([]);
  });

  it("reads a row's status: `status` when posted alone, else the incident's select of the page's status form", () => {
    expect(postedStatus(form([["status", "2"], ["status-12", "1"]]), 12)).toBe("2");
    expect(postedStatus(form([["id", "12"], ["status-11", "3"], ["status-12", "1"]]), 12)).toBe("1");
    expect(postedStatus(form([["id", "12"]]), 12)).toBeNull();
  });
});
