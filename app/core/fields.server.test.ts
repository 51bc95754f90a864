import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFields } from "~/lib/fields";
import { fieldColumns, fieldFormValues, fieldRow, fieldValues } from "./fields.server";

const things = pgTable("things", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  entityId: integer("entity_id").notNull(),
  name: text("name").notNull(),
  placeId: integer("place_id").notNull(),
  hint: text("hint").notNull().default(""),
  label: text("label"),
  everywhere: boolean("everywhere").notNull().default(false),
});

// name: stored under another input key; place: a reference whose input key is the column; label: a
// column named explicitly; hint: its own column; note: read by the import only; tags: kept elsewhere.
const area = defineFields({
  fields: {
    name: { kind: "text", input: "thingName" },
    place: { kind: "reference", reference: "facility", input: "placeId" },
    hint: { kind: "text" },
    caption: { kind: "text", column: "label" },
    note: { kind: "text", input: null },
    tags: { kind: "tags", column: null },
  },
});

describe("an area's fields against its table", () => {
  it("writes each value under its column key, read from its input key, and leaves out the fields that are no column", () => {
    expect(fieldValues(things, area, { thingName: "Boiler", placeId: 7, hint: "left", caption: "B1", note: "x", tags: ["a"] })).toEqual({
      name: "Boiler",
      placeId: 7,
      hint: "left",
      label: "B1",
    });
  });

  it("writes an empty value of a NOT NULL column with a default as that default, other empty values as null", () => {
    expect(fieldValues(things, area, { thingName: "Boiler", placeId: 7, hint: null, caption: null })).toEqual({
      name: "Boiler",
      placeId: 7,
      hint: "",
      label: null,
    });
  });

  it("completes an insert's row with the verb's own columns, and refuses a row lacking a required column", () => {
    expect(fieldRow(things, area, { thingName: "Boiler", placeId: 7, hint: "left", caption: null }, { entityId: 3 })).toEqual({
      name: "Boiler",
      placeId: 7,
      hint: "left",
      label: null,
      entityId: 3,
    });
    expect(() => fieldRow(things, area, { thingName: "Boiler", placeId: 7 }, {})).toThrow("fieldRow: no value for entityId");
  });

  it("selects the stored fields the shape names, under their input keys, and refuses a key that is no stored field", () => {
    const shape = { thingName: z.string(), placeId: z.number(), hint: z.string(), caption: z.string().nullable() };
    expect(Object.keys(fieldColumns(things, area, shape))).toEqual(["thingName", "placeId", "hint", "caption"]);
    expect(Object.keys(fieldColumns(things, area, { thingName: z.string() }))).toEqual(["thingName"]);
    expect(() => fieldColumns(things, area, { thingName: z.string(), tags: z.array(z.string()) })).toThrow("fieldColumns: tags is not a stored field's input key");
  });

  it("selects an area's own columns under their keys, and refuses a field stored under another key without a shape", () => {
    const own = defineFields({ fields: { name: { kind: "text" }, everywhere: { kind: "choice", choice: "yesNo" } } });
    expect(fieldColumns(things, own)).toEqual({ name: things.name, everywhere: things.everywhere });
    expect(() => fieldColumns(things, area as never)).toThrow("field name is not its own column");
  });

  it("refuses a field naming a column the table lacks", () => {
    expect(() => fieldValues(things, defineFields({ fields: { size: { kind: "integer" } } }), { size: 1 })).toThrow("field size: no column size");
  });

  it("starts the edit form from the detail's values of the shape's keys, each a field the verb takes", () => {
    const detail = { id: 9, thingName: "Boiler", placeId: 7, hint: "", caption: "B1", tags: ["a"], placeName: "Site" };
    expect(fieldFormValues(area, detail, { thingName: z.string(), placeId: z.number(), tags: z.array(z.string()) })).toEqual({ thingName: "Boiler", placeId: 7, tags: ["a"] });
    expect(() => fieldFormValues(area, detail, { note: z.string() })).toThrow("fieldFormValues: note is not a field's input key");
  });
});
