import { z } from "zod";
import { supportedLngs } from "~/i18n";
import { checkbox, idList, INVALID } from "~/lib/schema-helpers";
import { COLUMNS, MAX_OFFSET_MM, ROWS } from "./layout";
import { LABEL_LINES, MAX_COPIES, MAX_SELECTION } from "./constants";

/**
 * What a print asks for (SPEC.md sections 2, 5 and 9), one shape for the /printing forms, the REST bodies
 * and the background job. Client-safe; messages are i18n keys.
 */

export { BACKGROUND_THRESHOLD, LABEL_LINES, MAX_COPIES, MAX_SELECTION, MAX_STICKERS, type LabelLine } from "./constants";

const HEX = /^#[0-9a-fA-F]{6}$/;

const startRow = () =>
  z
    .number({ error: "printing:validation.startRow" })
    .int("printing:validation.startRow")
    .min(1, "printing:validation.startRow")
    .max(ROWS, "printing:validation.startRow")
    .nullish()
    .transform((v) => v ?? 1);

const startColumn = () =>
  z
    .number({ error: "printing:validation.startColumn" })
    .int("printing:validation.startColumn")
    .min(1, "printing:validation.startColumn")
    .max(COLUMNS, "printing:validation.startColumn")
    .nullish()
    .transform((v) => v ?? 1);

const selection = () => idList().refine((ids) => ids.length <= MAX_SELECTION, "printing:validation.tooMany");

const color = () =>
  z
    .string({ error: "printing:validation.color" })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || HEX.test(v), "printing:validation.color");

/** The selection of the location tree: whole facilities, buildings and rooms (their rooms and items; a room, itself and its items), items. */
export const SelectionSchema = z.object({
  facilityIds: selection(),
  buildingIds: selection(),
  roomIds: selection(),
  equipmentItemIds: selection(),
  /** Only the report identifiers not printed yet. */
  notPrintedOnly: checkbox(),
});
export type SelectionValues = z.output<typeof SelectionSchema>;

/** How a QR sticker looks: colours, logo, label lines and their language. */
export const StyleSchema = z
  .object({
    /** "entity": the entity's template colours; "custom": `background` and `textColor`. */
    colors: z.enum(["entity", "custom"], { error: INVALID }).nullish().transform((v) => v ?? "entity"),
    background: color(),
    textColor: color(),
    /** The entity's logo in the centre of the code (high error correction). */
    logo: checkbox(),
    lines: z
      .array(z.enum(LABEL_LINES, { error: INVALID }), { error: INVALID })
      .nullish()
      .transform((v) => LABEL_LINES.filter((line) => v?.includes(line))),
    /** The language of the label lines (the floor's word); default the viewer's. */
    language: z.enum(supportedLngs, { error: INVALID }).nullish().transform((v) => v ?? null),
  })
  .superRefine((v, ctx) => {
    if (v.colors !== "custom") return;
    if (!v.background) ctx.addIssue({ code: "custom", message: "printing:validation.color", path: ["background"] });
    if (!v.textColor) ctx.addIssue({ code: "custom", message: "printing:validation.color", path: ["textColor"] });
  });
export type StyleValues = z.output<typeof StyleSchema>;

export const StartSchema = z.object({ startRow: startRow(), startColumn: startColumn() });

/** POST /printing/qr-codes.pdf and /api/printing/qr-codes. */
export const QrCodesSchema = z.intersection(z.intersection(SelectionSchema, StyleSchema), StartSchema);
export type QrCodesInput = z.input<typeof QrCodesSchema>;
export type QrCodesValues = z.output<typeof QrCodesSchema>;

/** POST /printing/explanatory-stickers.pdf and /api/printing/explanatory-stickers (SPEC.md section 5). */
export const ExplanatoryStickersSchema = z.object({
  copies: z
    .number({ error: "printing:validation.copies" })
    .int("printing:validation.copies")
    .min(1, "printing:validation.copies")
    .max(MAX_COPIES, "printing:validation.copiesMax"),
  startRow: startRow(),
  startColumn: startColumn(),
});
export type ExplanatoryStickersValues = z.output<typeof ExplanatoryStickersSchema>;

const offset = () =>
  z
    .number({ error: "printing:validation.offset" })
    .min(-MAX_OFFSET_MM, "printing:validation.offset")
    .max(MAX_OFFSET_MM, "printing:validation.offset")
    .nullish()
    .transform((v) => Math.round((v ?? 0) * 10) / 10);

/** The printer's calibration offset, in mm (tenths). */
export const CalibrationSchema = z.object({ offsetX: offset(), offsetY: offset() });
export type CalibrationValues = z.output<typeof CalibrationSchema>;

const LIST_FIELDS = ["facilityIds", "buildingIds", "roomIds", "equipmentItemIds", "lines"] as const;
const NUMBER_FIELDS = ["startRow", "startColumn", "copies", "offsetX", "offsetY"] as const;
const ID_LISTS = new Set(["facilityIds", "buildingIds", "roomIds", "equipmentItemIds"]);

/**
 * A posted form or an address's query as the schemas above read it: repeated fields as lists (ids as
 * numbers), numbers as numbers, empty fields absent. A value that is not a number stays a string, which
 * the schema refuses with its message.
 */
export function printFormValues(data: URLSearchParams | FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const text = (v: FormDataEntryValue) => (typeof v === "string" ? v.trim() : "");
  for (const name of LIST_FIELDS) {
    const values = data.getAll(name).map(text).filter((v) => v !== "");
    if (values.length) out[name] = ID_LISTS.has(name) ? values.map((v) => (/^\d{1,10}$/.test(v) ? Number(v) : v)) : values;
  }
  for (const name of NUMBER_FIELDS) {
    const value = data.get(name);
    if (value === null || text(value) === "") continue;
    const v = text(value).replace(",", ".");
    out[name] = /^-?\d{1,6}(\.\d{1,3})?$/.test(v) ? Number(v) : v;
  }
  for (const name of ["notPrintedOnly", "logo", "colors", "background", "textColor", "language"]) {
    const value = data.get(name);
    if (value !== null && text(value) !== "") out[name] = text(value);
  }
  return out;
}
