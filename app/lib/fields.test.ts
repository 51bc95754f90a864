import { describe, expect, it } from "vitest";
import { defineFields, exportKeys, fieldCell, fieldInput, pickFields, textMax } from "./fields";
import { optionalText, requiredText } from "./schema-helpers";

const words = {
  word: (group: string, value: number | string | null | undefined) => `${group}:${value}`,
  list: (values: readonly (string | null | undefined)[]) => values.join(", "),
  yesNo: (value: boolean) => (value ? "yes" : "no"),
};

const area = defineFields({
  fields: {
    name: { kind: "text", required: true, max: 200, input: "typeName" },
    place: { kind: "reference", reference: "facility", input: "placeId", row: "placeName" },
    hint: { kind: "text", input: null },
    tags: { kind: "tags" },
    unit: { kind: "choice", choice: "occurrenceUnit" },
    everywhere: { kind: "choice", choice: "yesNo" },
  },
  exportOrder: ["name", "tags"],
  compose: (values) => ({ hints: [values.hint] }),
});

describe("declared fields", () => {
  it("reads a text field's longest length from its zod schema, through its wrappers", () => {
    expect(textMax(requiredText(200))).toBe(200);
    expect(textMax(optionalText(2000))).toBe(2000);
  });

  it("orders the export as exportOrder names, the other fields after it in declaration order", () => {
    expect(exportKeys(area)).toEqual(["name", "tags", "place", "hint", "unit", "everywhere"]);
    expect(exportKeys(defineFields({ fields: { a: { kind: "text" }, b: { kind: "text" } } }))).toEqual(["a", "b"]);
  });

  it("passes an import line's values under the verb's keys, leaving out those read only, and adds the composed ones", () => {
    expect(fieldInput(area, { name: "Boiler", place: 7, hint: "left", tags: ["a"], unit: 2, everywhere: null })).toEqual({
      typeName: "Boiler",
      placeId: 7,
      tags: ["a"],
      unit: 2,
      everywhere: null,
      hints: ["left"],
    });
  });

  it("writes an export cell by kind: tags joined, choices as words, the rest as it is", () => {
    expect(fieldCell(area.fields.tags, ["a", "b"], words)).toBe("a, b");
    expect(fieldCell(area.fields.unit, 3, words)).toBe("occurrenceUnit:3");
    expect(fieldCell(area.fields.everywhere, true, words)).toBe("yes");
    expect(fieldCell(area.fields.name, null, words)).toBeNull();
    expect(fieldCell({ kind: "tags", cell: (v) => `${(v as string[]).length} tags` }, ["a", "b"], words)).toBe("2 tags");
  });

  it("picks the declared fields of a record (an edit form's starting values)", () => {
    expect(pickFields(area, { name: "Boiler", place: 1, hint: "", tags: [], unit: 0, everywhere: false, id: 9, extra: "x" })).toEqual({
      name: "Boiler",
      place: 1,
      hint: "",
      tags: [],
      unit: 0,
      everywhere: false,
    });
  });
});
