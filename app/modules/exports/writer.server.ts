import { once } from "node:events";
import fs from "node:fs";
import type { ServiceContext } from "~/core/context.server";
import { type ExportDefinition, headerKey } from "./definitions.server";
import type { Cell, ExportFormatter } from "./format";
import type { ExportFormat } from "./schema";
import { writeXlsxTable } from "./xlsx-stream.server";

/**
 * Writes an export to a file row by row (decision 055), never holding more than one batch of rows:
 *
 * - **xlsx**: exceljs's streaming writer, each row committed as it comes (xlsx-stream.server.ts:
 *   inline strings, no styles, a frozen header row);
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
  const { ctx, definition, filters, formatter } = options;
  const columns = definition.columns;
  let processed = 0;
  async function* cells(): AsyncGenerator<Cell[][]> {
    for await (const batch of definition.batches(ctx, filters, (n) => options.onTotal?.(n))) {
      const rows: Cell[][] = new Array(batch.length);
      for (let r = 0; r < batch.length; r++) {
        const values: Cell[] = new Array(columns.length);
        for (let i = 0; i < columns.length; i++) values[i] = columns[i].value(batch[r], formatter) ?? null;
        rows[r] = values;
      }
      yield rows;
      processed += batch.length;
      await options.onProgress?.(processed);
    }
  }
  await writeXlsxTable({ target: options.target, name: options.sheetName, header: headers(options), batches: cells() });
  return processed;
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
