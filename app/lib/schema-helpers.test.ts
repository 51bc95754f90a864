import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { checkbox, idField, idList, INVALID, MAX_TAG_LENGTH, MAX_TAGS, optionalText, REQUIRED, requiredText, TAG_EMPTY, TAG_TOO_LONG, TAG_TOO_MANY, tagField, tagsField, TOO_LONG } from "./schema-helpers";

/** The messages of a failed parse, by dotted path ("" for the root). */
function errorsOf(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected a failure, got ${JSON.stringify(result.data)}`);
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) (out[issue.path.join(".")] ??= []).push(issue.message);
  return out;
}

describe("tags (SPEC.md section 5: not empty, at most 3, at most 20 characters)", () => {
  const tags = tagsField();

  it("uses the SPEC limits and the common:tags keys", () => {
    expect(MAX_TAGS).toBe(3);
    expect(MAX_TAG_LENGTH).toBe(20);
    expect([TAG_EMPTY, TAG_TOO_MANY, TAG_TOO_LONG]).toEqual(["common:tags.empty", "common:tags.tooMany", "common:tags.tooLong"]);
  });

  it("reads missing tags as none", () => {
    expect(tags.parse(undefined)).toEqual([]);
    expect(tags.parse(null)).toEqual([]);
    expect(tags.parse([])).toEqual([]);
  });

  it("trims tags and drops duplicates ignoring case, keeping the first spelling and the order", () => {
    expect(tags.parse([" Blue ", "red", "BLUE"])).toEqual(["Blue", "red"]);
    expect(tags.parse(["a", "b", "c"])).toEqual(["a", "b", "c"]);
  });

  it("refuses an empty or blank tag with common:tags.empty on its index", () => {
    expect(errorsOf(tags, [""])).toEqual({ "0": [TAG_EMPTY] });
    expect(errorsOf(tags, ["ok", "   "])).toEqual({ "1": [TAG_EMPTY] });
    expect(errorsOf(tags, [null])).toEqual({ "0": [TAG_EMPTY] });
    expect(errorsOf(tags, [42])).toEqual({ "0": [TAG_EMPTY] });
  });

  it("refuses a fourth tag with common:tags.tooMany", () => {
    expect(errorsOf(tags, ["a", "b", "c", "d"])).toEqual({ "": [TAG_TOO_MANY] });
    expect(errorsOf(tags, ["a", "b", "c", "d", "e", "f"])).toEqual({ "": [TAG_TOO_MANY] });
  });

  it("allows 20 characters and refuses 21 with common:tags.tooLong (counted after trimming)", () => {
    expect(tags.parse(["x".repeat(20)])).toEqual(["x".repeat(20)]);
    expect(tags.parse([`  ${"x".repeat(20)}  `])).toEqual(["x".repeat(20)]);
    expect(errorsOf(tags, ["x".repeat(21)])).toEqual({ "0": [TAG_TOO_LONG] });
    expect(errorsOf(tags, ["ok", "é".repeat(21)])).toEqual({ "1": [TAG_TOO_LONG] });
  });

  it("reports every broken tag at once, and too many tags whatever they hold", () => {
    expect(errorsOf(tags, ["", "y".repeat(21), "c"])).toEqual({ "0": [TAG_EMPTY], "1": [TAG_TOO_LONG] });
    expect(errorsOf(tags, ["", "y".repeat(21), "c", "d"])[""]).toEqual([TAG_TOO_MANY]);
  });

  it("refuses a value that is not a list", () => {
    expect(errorsOf(tags, "a,b")).toEqual({ "": [INVALID] });
    expect(errorsOf(tags, { 0: "a" })).toEqual({ "": [INVALID] });
  });

  it("takes another maximum when a use allows more or fewer tags", () => {
    expect(tagsField(5).parse(["a", "b", "c", "d", "e"])).toHaveLength(5);
    expect(errorsOf(tagsField(5), ["a", "b", "c", "d", "e", "f"])).toEqual({ "": [TAG_TOO_MANY] });
    expect(errorsOf(tagsField(1), ["a", "b"])).toEqual({ "": [TAG_TOO_MANY] });
  });

  it("checks one tag alone (the add-tag call)", () => {
    const tag = tagField();
    expect(tag.parse("  new  ")).toBe("new");
    expect(errorsOf(tag, "")).toEqual({ "": [TAG_EMPTY] });
    expect(errorsOf(tag, undefined)).toEqual({ "": [TAG_EMPTY] });
    expect(errorsOf(tag, "z".repeat(21))).toEqual({ "": [TAG_TOO_LONG] });
  });
});

describe("text fields", () => {
  it("requiredText trims, requires and limits", () => {
    const name = requiredText(5, "x:nameRequired");
    expect(name.parse("  Bob ")).toBe("Bob");
    expect(errorsOf(name, "")).toEqual({ "": ["x:nameRequired"] });
    expect(errorsOf(name, "   ")).toEqual({ "": ["x:nameRequired"] });
    expect(errorsOf(name, undefined)).toEqual({ "": ["x:nameRequired"] });
    expect(errorsOf(name, null)).toEqual({ "": ["x:nameRequired"] });
    expect(errorsOf(name, "abcdef")).toEqual({ "": [TOO_LONG] });
    expect(errorsOf(requiredText(5), "")).toEqual({ "": [REQUIRED] });
  });

  it("optionalText turns empty, blank or missing into null and limits", () => {
    const notes = optionalText(3);
    expect(notes.parse(undefined)).toBeNull();
    expect(notes.parse(null)).toBeNull();
    expect(notes.parse("")).toBeNull();
    expect(notes.parse("  ")).toBeNull();
    expect(notes.parse(" ab ")).toBe("ab");
    expect(errorsOf(notes, "abcd")).toEqual({ "": [TOO_LONG] });
    expect(errorsOf(notes, 12)).toEqual({ "": [INVALID] });
  });
});

describe("ids", () => {
  it("idField takes a positive 32-bit integer, anything else answers its message", () => {
    const id = idField("x:required");
    expect(id.parse(7)).toBe(7);
    for (const value of [undefined, null, 0, -1, 1.5, "7", 2_147_483_648, Number.NaN]) {
      expect(errorsOf(id, value)[""], String(value)).toContain("x:required");
    }
  });

  it("idList reads missing as none, drops duplicates and refuses non-ids", () => {
    const ids = idList();
    expect(ids.parse(undefined)).toEqual([]);
    expect(ids.parse(null)).toEqual([]);
    expect(ids.parse([3, 1, 3])).toEqual([3, 1]);
    expect(errorsOf(ids, [1, 0])).toEqual({ "1": [INVALID] });
    expect(errorsOf(ids, ["1"])).toEqual({ "0": [INVALID] });
    expect(errorsOf(ids, 1)).toEqual({ "": [INVALID] });
  });
});

describe("checkbox", () => {
  it("reads a form 'on', JSON booleans and their strings", () => {
    const box = checkbox();
    expect(box.parse("on")).toBe(true);
    expect(box.parse(true)).toBe(true);
    expect(box.parse("true")).toBe(true);
    expect(box.parse("false")).toBe(false);
    expect(box.parse(false)).toBe(false);
    expect(box.parse(undefined)).toBe(false);
    expect(box.parse(null)).toBe(false);
    expect(box.safeParse("yes").success).toBe(false);
  });
});
