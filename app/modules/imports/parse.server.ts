import ExcelJS from "exceljs";
import { ValidationError } from "~/lib/errors";

/**
 * Reading an uploaded spreadsheet into lines of text cells: an .xlsx workbook (its first sheet: the
 * template's data sheet) or a CSV file (UTF-8 with or without a byte order mark, comma, semicolon or
 * tab separated, as Belgian Excel writes it). The kind is decided by the bytes, never by the name.
 * Line numbers are the file's own (the header is line 1), so an error points at the line a user sees
 * in Excel. Empty lines are left out (trailing ones included); the numbering still counts them.
 */
export interface SheetLine {
  line: number;
  cells: string[];
}

export interface Sheet {
  header: string[];
  lines: SheetLine[];
}

export const NOT_A_SPREADSHEET = "imports:errors.notSpreadsheet";
export const EMPTY_FILE = "imports:errors.emptyFile";

const notSpreadsheet = () => new ValidationError({ file: [NOT_A_SPREADSHEET] }, NOT_A_SPREADSHEET, "NOT_A_SPREADSHEET");

/** Cells as the user sees them: trimmed text, control characters other than tab and newline dropped. */
function clean(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").trim();
}

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export async function readSheet(bytes: Uint8Array): Promise<Sheet> {
  if (bytes.byteLength === 0) throw new ValidationError({ file: [EMPTY_FILE] }, EMPTY_FILE, "FILE_EMPTY");
  const sheet = isZip(bytes) ? await readXlsx(bytes) : readCsv(bytes);
  return sheet;
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

async function readXlsx(bytes: Uint8Array): Promise<Sheet> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  } catch {
    throw notSpreadsheet();
  }
  const sheet = workbook.worksheets.find((w) => w.state !== "hidden" && w.state !== "veryHidden") ?? workbook.worksheets[0];
  if (!sheet) throw notSpreadsheet();
  let header: string[] | null = null;
  const lines: SheetLine[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = clean(cellText(cell));
    });
    for (let i = 0; i < cells.length; i++) cells[i] ??= "";
    if (header === null) {
      if (cells.some((c) => c !== "")) header = cells;
      return;
    }
    if (cells.some((c) => c !== "")) lines.push({ line: rowNumber, cells });
  });
  if (header === null) throw new ValidationError({ file: [EMPTY_FILE] }, EMPTY_FILE, "FILE_EMPTY");
  return { header, lines };
}

// ---------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------

function decodeUtf8(bytes: Uint8Array): string {
  if (bytes.includes(0)) throw notSpreadsheet();
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    throw notSpreadsheet();
  }
}

/** The separator of the first line: the most frequent of `;`, `,` and tab outside quotes (`,` on a tie). */
function delimiterOf(text: string): string {
  const counts: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  return counts[";"] > counts[","] && counts[";"] >= counts["\t"] ? ";" : counts["\t"] > counts[","] ? "\t" : ",";
}

/** RFC 4180 records (quotes, doubled quotes, separators and line breaks inside quotes), with their first line's number. */
export function parseCsv(text: string, delimiter = delimiterOf(text)): SheetLine[] {
  const records: SheetLine[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let touched = false;
  const endCell = () => {
    cells.push(cell);
    cell = "";
  };
  const endRecord = () => {
    endCell();
    records.push({ line: start, cells });
    cells = [];
    touched = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === "\n") line++;
        cell += ch;
      }
      continue;
    }
    if (!touched) {
      start = line;
      touched = true;
    }
    if (ch === '"') quoted = true;
    else if (ch === delimiter) endCell();
    else if (ch === "\r" || ch === "\n") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
    } else cell += ch;
  }
  if (touched || cell !== "" || cells.length > 0) endRecord();
  return records;
}

/**
 * A CSV cell as it was before an export defused it: the export writes a text beginning with `=`, `+`,
 * `-`, `@`, tab or CR after a `'` so that Excel does not run it as a formula (decision 055); reading it
 * back drops that `'`, so an exported text imports unchanged (decision 054, round trip).
 */
function undefused(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

function readCsv(bytes: Uint8Array): Sheet {
  const text = decodeUtf8(bytes);
  const records = parseCsv(text).map((r) => ({ line: r.line, cells: r.cells.map((c) => clean(undefused(c))) }));
  const filled = records.filter((r) => r.cells.some((c) => c !== ""));
  const [header, ...lines] = filled;
  if (!header) throw new ValidationError({ file: [EMPTY_FILE] }, EMPTY_FILE, "FILE_EMPTY");
  return { header: header.cells, lines };
}
