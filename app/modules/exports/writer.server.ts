import { once } from "node:events";
import fs from "node:fs";
import ExcelJS from "exceljs";
import type { ServiceContext } from "~/core/context.server";
import { type ExportDefinition, headerKey } from "./definitions.server";
import type { Cell, ExportFormatter } from "./format";
import type { ExportFormat } from "./schema";

/**
 * Writes an export to a file row by row (decision 055), never holding more than one batch of rows:
 *
 * - **xlsx**: exceljs's streaming `WorkbookWriter` (no shared strings, no styles: each row is written
 *   and committed as it comes), one sheet with a frozen header row;
 * - **csv**: UTF-8 with a byte-order mark, `;` between fields and CRLF between lines, as Excel in
 *   Belgium (French and Dutch, whose list separator is `;`) reads and writes it; fields holding `;`,
 *   `"` or a line break are quoted with `"` doubled. A text cell starting with `=`, `+`, `-`, `@`, a tab
 *   or a carriage return is written after a `'`, so a spreadsheet never runs a reporter's title as a
 *   formula (OWASP's CSV injection advice).
 */
export const MIME_TYPES: Record<ExportFormat, string> = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv",
};

export interface WriteOptions<R, F> {
  ctx: ServiceContext;
  definition: ExportDefinition<R, F>;
  filters: F;
  format: ExportFormat;
  formatter: ExportFormatter;
  /** The file to write (created or replaced). */
  target: string;
  /** The sheet's name (xlsx). */
  sheetName: string;
  /** Told the row count when known, then after every batch with the rows written so far. */
  onTotal?(total: number): void;
  onProgress?(processed: number): Promise<void> | void;
}

/** Writes the export; answers how many rows it wrote. */
export async function writeExport<R, F>(options: WriteOptions<R, F>): Promise<number> {
  return options.format === "csv" ? writeCsv(options) : writeXlsx(options);
}

function headers<R, F>({ definition, formatter }: WriteOptions<R, F>): string[] {
  return definition.columns.map((c) => formatter.t(headerKey(c)));
}

async function writeXlsx<R, F>(options: WriteOptions<R, F>): Promise<number> {
  const { ctx, definition, filters, formatter, target } = options;
  // Fast deflate: an export's XML compresses well at level 1, and the writer keeps up with the rows.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: target, useStyles: false, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  const sheet = workbook.addWorksheet(sheetTitle(options.sheetName), { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.addRow(headers(options)).commit();
  const columns = definition.columns;
  let processed = 0;
  try {
    for await (const batch of definition.batches(ctx, filters, (n) => options.onTotal?.(n))) {
      for (const row of batch) {
        const values: Cell[] = new Array(columns.length);
        for (let i = 0; i < columns.length; i++) values[i] = columns[i].value(row, formatter) ?? null;
        sheet.addRow(values).commit();
      }
      processed += batch.length;
      await sheetDrained(sheet);
      await options.onProgress?.(processed);
    }
    sheet.commit();
  } finally {
    // The workbook is finished (and its file closed) whatever happened; the caller removes a failed one.
    await workbook.commit();
  }
  return processed;
}

/** How much of a sheet's XML may wait for the zip before the next batch is read. */
const SHEET_BACKLOG = 1024 * 1024;

/**
 * Backpressure for exceljs's streaming writer, which writes a sheet's XML into the zip entry without
 * waiting: when compressing falls behind, the next batch waits until the entry's backlog is small, so
 * memory stays flat whatever the number of rows.
 */
async function sheetDrained(sheet: ExcelJS.Worksheet): Promise<void> {
  type Pipe = { writableLength?: number; _writableState?: { length?: number } };
  const pipes = (sheet as unknown as { stream?: { pipes?: Pipe[] } }).stream?.pipes ?? [];
  // The zip entry is a PassThrough of readable-stream 2 (through archiver), which has no public
  // `writableLength`: its state's length is the same figure.
  // eslint-disable-next-line caretaker/no-private-members -- no public API gives this stream's backlog
  const backlog = (pipe: Pipe) => pipe.writableLength ?? pipe._writableState?.length ?? 0;
  while (pipes.some((pipe) => backlog(pipe) > SHEET_BACKLOG)) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** An xlsx sheet name: at most 31 characters, none of `[]:*?/\`. */
function sheetTitle(name: string): string {
  return name.replace(/[[\]:*?/\\]/g, " ").slice(0, 31) || "Export";
}

const NEEDS_QUOTES = /[;"\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: Cell): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function writeCsv<R, F>(options: WriteOptions<R, F>): Promise<number> {
  const { ctx, definition, filters, formatter, target } = options;
  const out = fs.createWriteStream(target);
  const failed = new Promise<never>((_, reject) => out.once("error", reject));
  failed.catch(() => undefined);
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await Promise.race([once(out, "drain"), failed]);
  };
  const columns = definition.columns;
  let processed = 0;
  try {
    await write(`\uFEFF${headers(options).map(csvField).join(";")}\r\n`);
    for await (const batch of definition.batches(ctx, filters, (n) => options.onTotal?.(n))) {
      let chunk = "";
      for (const row of batch) {
        let line = "";
        for (let i = 0; i < columns.length; i++) line += (i ? ";" : "") + csvField(columns[i].value(row, formatter) ?? null);
        chunk += `${line}\r\n`;
      }
      await write(chunk);
      processed += batch.length;
      await options.onProgress?.(processed);
    }
  } finally {
    await Promise.race([new Promise<void>((resolve) => out.end(() => resolve())), failed]);
  }
  return processed;
}
