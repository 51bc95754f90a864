import { and, asc, eq, isNull } from "drizzle-orm";
import ExcelJS from "exceljs";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { buildings, equipmentCategories, equipmentTypes, facilities, roomTypes } from "~/db/schema";
import { treeScope } from "~/modules/facilities/policy.server";
import { CHOICES, columnLabelKey, type ImportColumn, type ImportTypeDefinition, type ReferenceKind } from "./columns";

/**
 * The downloadable templates (decision 054). The .xlsx has three sheets: the data sheet (first: the one
 * an import reads) with the translated headers, mandatory ones marked " *" and shaded, and drop-down
 * lists on its cells for enumerations (strict) and references (a warning only: a short id is accepted
 * too); an example sheet with one example line (kept out of the data sheet so that it is never imported
 * by mistake); a hidden sheet holding the references' lists (the entity's facilities, buildings, room
 * types or categories within the user's reach). The CSV template is the header line alone, with a
 * byte order mark, separated as the language's Excel writes it (`;` in Belgium's French and Dutch).
 *
 * The texts come from the caller (`label`): this module decides the layout, the route the language.
 */
export type Label = (key: string, params?: Record<string, unknown>) => string;

/** Lines of the data sheet that carry the drop-down lists. */
const VALIDATED_LINES = 5000;
const MANDATORY_FILL = "FFFDE68A";

export function headerText(column: ImportColumn, label: Label): string {
  return `${label(columnLabelKey(column))}${column.required ? " *" : ""}`;
}

async function referenceNames(ctx: ServiceContext, kind: ReferenceKind): Promise<string[]> {
  const e = ctx.entityId;
  const rows = await (() => {
    switch (kind) {
      case "facility":
        return ctx.db
          .select({ name: facilities.name })
          .from(facilities)
          .where(and(eq(facilities.entityId, e), isNull(facilities.archivedAt), treeScope(ctx, "wholeFacility")))
          .orderBy(asc(facilities.name))
          .limit(VALIDATED_LINES);
      case "building":
        return ctx.db
          .select({ name: buildings.name })
          .from(buildings)
          .where(and(eq(buildings.entityId, e), isNull(buildings.archivedAt), treeScope(ctx, "building")))
          .orderBy(asc(buildings.name))
          .limit(VALIDATED_LINES);
      case "roomType":
        return ctx.db
          .select({ name: roomTypes.name })
          .from(roomTypes)
          .where(and(eq(roomTypes.entityId, e), isNull(roomTypes.archivedAt)))
          .orderBy(asc(roomTypes.name))
          .limit(VALIDATED_LINES);
      case "category":
        return ctx.db
          .select({ name: equipmentCategories.name })
          .from(equipmentCategories)
          .where(and(eq(equipmentCategories.entityId, e), isNull(equipmentCategories.archivedAt)))
          .orderBy(asc(equipmentCategories.name))
          .limit(VALIDATED_LINES);
      case "equipmentType":
        return ctx.db
          .select({ name: equipmentTypes.name })
          .from(equipmentTypes)
          .where(and(eq(equipmentTypes.entityId, e), isNull(equipmentTypes.archivedAt)))
          .orderBy(asc(equipmentTypes.name))
          .limit(VALIDATED_LINES);
      case "room":
      case "equipmentItem":
      case "itemIdentifier":
        // Room names repeat across buildings and items are many: no list, the names are typed.
        return Promise.resolve([]);
    }
  })();
  return [...new Set(rows.map((r) => r.name))];
}

function columnLetter(index: number): string {
  let n = index + 1;
  let letters = "";
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

function exampleValue(column: ImportColumn, label: Label, references: Map<ReferenceKind, string[]>): string {
  if (column.kind === "choice") return label(CHOICES[column.choice!][column.choice === "yesNo" ? 1 : Math.min(1, CHOICES[column.choice!].length - 1)].labelKey);
  if (column.kind === "reference") return references.get(column.reference!)?.[0] ?? column.example ?? "";
  return column.example ?? "";
}

/** The .xlsx template of an import type for the context's user. */
export async function xlsxTemplate(ctx: ServiceContext, definition: ImportTypeDefinition, label: Label): Promise<Buffer> {
  assertCan(ctx.actor, "import", "data");
  const references = new Map<ReferenceKind, string[]>();
  for (const column of definition.columns) {
    if (column.reference && !references.has(column.reference)) references.set(column.reference, await referenceNames(ctx, column.reference));
  }
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Caretaker";
  const data = workbook.addWorksheet(label("imports:template.dataSheet"), { views: [{ state: "frozen", ySplit: 1 }] });
  const example = workbook.addWorksheet(label("imports:template.exampleSheet"));
  const lists = workbook.addWorksheet(label("imports:template.listsSheet"), { state: "hidden" });

  const headers = definition.columns.map((c) => headerText(c, label));
  data.addRow(headers);
  data.getRow(1).font = { bold: true };
  definition.columns.forEach((column, i) => {
    const cell = data.getRow(1).getCell(i + 1);
    if (column.required) cell.fill = { type: "pattern", pattern: "solid", fgColor: { argb: MANDATORY_FILL } };
    data.getColumn(i + 1).width = Math.max(14, headers[i].length + 4);
    example.getColumn(i + 1).width = Math.max(14, headers[i].length + 4);
  });

  // The lists: one column of the hidden sheet per enumeration or reference used.
  let listColumn = 0;
  definition.columns.forEach((column, i) => {
    if (column.kind !== "choice" && column.kind !== "reference") return;
    const values = column.kind === "choice" ? CHOICES[column.choice!].map((c) => label(c.labelKey)) : (references.get(column.reference!) ?? []);
    const letter = columnLetter(listColumn++);
    values.forEach((value, row) => {
      lists.getCell(`${letter}${row + 1}`).value = value;
    });
    if (values.length === 0) return;
    const target = `${columnLetter(i)}2:${columnLetter(i)}${VALIDATED_LINES + 1}`;
    const strict = column.kind === "choice";
    (data as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } }).dataValidations.add(target, {
      type: "list",
      allowBlank: true,
      formulae: [`'${label("imports:template.listsSheet").replace(/'/g, "''")}'!$${letter}$1:$${letter}$${values.length}`],
      showErrorMessage: true,
      errorStyle: strict ? "stop" : "warning",
      error: label("imports:template.chooseFromList"),
    });
  });

  example.addRow(headers);
  example.getRow(1).font = { bold: true };
  example.addRow(definition.columns.map((c) => exampleValue(c, label, references)));
  example.addRow([]);
  example.addRow([label("imports:template.exampleHint")]);
  example.addRow([label("imports:template.mandatory")]);

  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The CSV template: the header line, with a byte order mark (Excel then reads it as UTF-8). */
export function csvTemplate(definition: ImportTypeDefinition, label: Label, delimiter: "," | ";"): string {
  const quote = (text: string) => (/[",;\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  return `\ufeff${definition.columns.map((c) => quote(headerText(c, label))).join(delimiter)}\r\n`;
}
