import { Readable } from "node:stream";
import { CsvError, parse as csvParser } from "csv-parse";
import ExcelJS from "exceljs";
import { logger } from "~/lib/logger.server";
import { BulkUploadErrorCode } from "~/db/enums";
import { ValidationError } from "~/lib/errors";
import { ImportFileError, MAX_IMPORT_ROWS } from "./check.server";

/**
 * Reading an uploaded spreadsheet into lines of text cells: an .xlsx workbook (its first visible
 * sheet: the template's data sheet) or a CSV file (UTF-8 with or without a byte order mark, comma,
 * semicolon or tab separated, as Belgian Excel writes it). The kind is decided by the bytes, never by
 * the name. Line numbers are the file's own (the header is line 1), so an error points at the line a
 * user sees in Excel. Empty lines are left out (trailing ones included); the numbering still counts them.
 *
 * Both kinds are read as streams and the reading stops one line past MAX_IMPORT_ROWS (the check then
 * refuses the file as too long), so a file of a million lines costs no more than one just over the limit.
 */
export interface SheetLine {
  line: number;
  cells: string[];
}

export interface Sheet {
  header: string[];
  /** The lines after the header, at most MAX_IMPORT_ROWS + 1 of them (more were not read). */
  lines: SheetLine[];
}

export const NOT_A_SPREADSHEET = "imports:errors.notSpreadsheet";
export const EMPTY_FILE = "imports:errors.emptyFile";
export const UNREADABLE_LINE = "imports:errors.unreadableLine";

const notSpreadsheet = () => new ValidationError({ file: [NOT_A_SPREADSHEET] }, NOT_A_SPREADSHEET, "NOT_A_SPREADSHEET");
const emptyFile = () => new ValidationError({ file: [EMPTY_FILE] }, EMPTY_FILE, "FILE_EMPTY");

/** Cells as the user sees them: trimmed text, control characters other than tab and newline dropped. */
function clean(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").trim();
}

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The bytes as a stream of 64 KiB chunks, so that the readers take them as they go and can stop early. */
function chunked(bytes: Uint8Array): Readable {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = 64 * 1024;
  return Readable.from(
    (function* () {
      for (let at = 0; at < buffer.byteLength; at += size) yield buffer.subarray(at, at + size);
    })(),
    { objectMode: false },
  );
}

/** Collects the header and the filled lines, up to one line past the limit; false once it has enough. */
class Lines {
  header: string[] | null = null;
  lines: SheetLine[] = [];
  add(line: number, cells: string[]): boolean {
    if (!cells.some((c) => c !== "")) return true;
    if (this.header === null) this.header = cells;
    else this.lines.push({ line, cells });
    return this.lines.length <= MAX_IMPORT_ROWS;
  }
  sheet(): Sheet {
    if (this.header === null) throw emptyFile();
    return { header: this.header, lines: this.lines };
  }
}

export async function readSheet(bytes: Uint8Array): Promise<Sheet> {
  if (bytes.byteLength === 0) throw emptyFile();
  return isZip(bytes) ? readXlsx(bytes) : readCsv(bytes);
}

// ---------------------------------------------------------------------------
// xlsx
// ---------------------------------------------------------------------------

function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "object") {
    if ("richText" in value) return value.richText.map((r) => r.text).join("");
    if ("text" in value && typeof value.text === "string") return value.text;
    if ("result" in value) return value.result === undefined || value.result === null ? "" : String(value.result);
  }
  return cell.text ?? "";
}

/** Whether a sheet of exceljs's streaming reader is hidden (its `state`, set from the workbook's part). */
const isHidden = (sheet: { state?: string }) => sheet.state === "hidden" || sheet.state === "veryHidden";

/**
 * The workbook read by exceljs's streaming reader (`WorkbookReader`), row by row, never held whole.
 * The sheet read is the first visible one in the order of the file's parts, which Excel and exceljs
 * write in the workbook's order.
 *
 * The reader unpacks a sheet whose part comes before the shared strings (Excel and exceljs save them so)
 * to a temporary file in a first pass over the upload, hands it over afterwards, and deletes that file
 * when the reading of the workbook goes on past it. So the reading always goes on to the workbook's end
 * then: a sheet not wanted, or the rest of the one read, is left after its first row (which closes its
 * file). A sheet handed over while the upload is still coming in (its part after the shared strings) is
 * unpacked as it is read: one not wanted is left unread (the reader skips its part), and at the limit the
 * upload is dropped there and then rather than unpacked to its end.
 */
async function readXlsx(bytes: Uint8Array): Promise<Sheet> {
  const source = chunked(bytes);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, { worksheets: "emit", sharedStrings: "cache", styles: "cache", hyperlinks: "ignore", entries: "ignore" });
  const found = new Lines();
  let chosen = false;
  try {
    for await (const worksheet of reader) {
      const wanted = !chosen && !isHidden(worksheet as { state?: string });
      const takenIn = source.readableEnded;
      if (!wanted) {
        if (takenIn) for await (const _row of worksheet) break;
        continue;
      }
      chosen = true;
      let previous = 0;
      let more = true;
      for await (const row of worksheet) {
        const number = Number.isInteger(row.number) && row.number > previous ? row.number : previous + 1;
        previous = number;
        const cells: string[] = [];
        row.eachCell({ includeEmpty: true }, (cell, col) => {
          cells[col - 1] = clean(cellText(cell));
        });
        for (let i = 0; i < cells.length; i++) cells[i] ??= "";
        more = found.add(number, cells);
        if (!more) break;
      }
      if (!more && !takenIn) {
        source.destroy();
        break;
      }
    }
  } catch (error) {
    // Kept in the log: the reader's own reason (a broken zip, a part it cannot parse) behind the user's
    // "not a spreadsheet".
    logger().info({ err: error }, "an uploaded workbook could not be read");
    throw notSpreadsheet();
  }
  if (!chosen) throw notSpreadsheet();
  return found.sheet();
}

// ---------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------

function checkUtf8(bytes: Uint8Array): string {
  if (bytes.includes(0)) throw notSpreadsheet();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notSpreadsheet();
  }
}

/**
 * The separator of the first line with content: the most frequent of `;`, `,` and tab outside quotes
 * (`,` on a tie).
 * csv-parse's own `delimiter_auto` is not used: it reads its sample with no separator at all, so a
 * quoted cell followed by a separator (`"Room, first";B`, as every export writes) fails it with
 * CSV_INVALID_CLOSING_QUOTE, and it scores every character (letters too) unless told otherwise.
 */
function delimiterOf(text: string): string {
  const counts: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (let i = Math.max(0, text.search(/[^\r\n]/)); i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  return counts[";"] > counts[","] && counts[";"] >= counts["\t"] ? ";" : counts["\t"] > counts[","] ? "\t" : ",";
}

/**
 * A CSV cell as it was before an export defused it: the export writes a text beginning with `=`, `+`,
 * `-`, `@`, tab or CR after a `'` so that Excel does not run it as a formula (decision 055); reading it
 * back drops that `'`, so an exported text imports unchanged (decision 054, round trip).
 */
function undefused(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** How many line breaks a cell holds (a quoted cell may span lines; CRLF, LF and CR each end one). */
const lineBreaks = (cell: string) => cell.match(/\r\n|\r|\n/g)?.length ?? 0;

/**
 * RFC 4180 records by csv-parse: quoted cells (with doubled quotes, separators and line breaks inside),
 * any of CRLF, LF and CR ending a line, lines of any length, a quote inside an unquoted cell kept as
 * text, as is a quoted cell followed by more text (`"B"x`). A record's line is the one it starts on,
 * counted from the line breaks of the records before it (csv-parse's own count takes a CRLF inside a
 * quoted cell for two lines). A quote never closed is refused with the line it was opened on.
 */
async function readCsv(bytes: Uint8Array): Promise<Sheet> {
  const delimiter = delimiterOf(checkUtf8(bytes));
  const source = chunked(bytes);
  // The first line of each record the parser has passed on, in order (`on_record` runs as each record
  // ends), and the line the next one starts on: the line of an unfinished record when the parse fails.
  const starts: number[] = [];
  let next = 1;
  const parser = source.pipe(
    csvParser({
      delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      on_record: (record: string[]) => {
        starts.push(next);
        next += 1 + record.reduce((sum, cell) => sum + lineBreaks(cell), 0);
        return record;
      },
    }),
  );
  const found = new Lines();
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!found.add(starts.shift()!, record.map((c) => clean(undefused(c))))) break;
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw new ImportFileError(BulkUploadErrorCode.INVALID_TEMPLATE_DATA, UNREADABLE_LINE, "UNREADABLE_LINE", { line: next });
  } finally {
    source.destroy();
  }
  return found.sheet();
}
