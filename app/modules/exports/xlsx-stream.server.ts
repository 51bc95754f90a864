import fs from "node:fs";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { ZipArchive } from "archiver";
import type { Cell } from "./format";

/**
 * A streaming writer of one-table workbooks (decision 055): the OOXML parts of a spreadsheet with its
 * rows as inline strings and numbers, zipped by archiver (the platform's zlib, off the main thread).
 * Each sheet is a pull stream: the next rows are asked for only when the zip has taken the previous
 * ones, so memory stays flat however many rows come, with the stream's own backpressure.
 *
 * Excel's limits are kept: at most 1,048,576 rows per sheet (the rows go on in a next sheet, each
 * with the header row) and 32,767 characters per cell; characters XML 1.0 cannot hold are dropped.
 */
export const XLSX_MAX_ROWS = 1_048_576;
const MAX_CELL_LENGTH = 32_767;

const NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

// `&`, `<`, `>`, `"`, the control characters XML 1.0 forbids, U+FFFE/U+FFFF and unpaired surrogates.
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const XML_UNSAFE = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

export function xmlText(text: string): string {
  return text.replace(XML_UNSAFE, (c) => ENTITIES[c] ?? "");
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** One row's XML. */
function rowXml(rowNumber: number, values: readonly Cell[], columns: readonly string[]): string {
  let xml = `<row r="${rowNumber}">`;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === "") continue;
    if (typeof value === "number") {
      if (Number.isFinite(value)) xml += `<c r="${columns[i]}${rowNumber}"><v>${value}</v></c>`;
      continue;
    }
    const text = value.length > MAX_CELL_LENGTH ? value.slice(0, MAX_CELL_LENGTH) : value;
    xml += `<c r="${columns[i]}${rowNumber}" t="inlineStr"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`;
  }
  return `${xml}</row>`;
}

const SHEET_START =
  `${XML_DECLARATION}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
  '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
  "<sheetData>";
const SHEET_END = "</sheetData></worksheet>";

/** A sheet name: at most 31 characters, none of `[]:*?/\`; later sheets end in " (2)", " (3)"... */
export function sheetName(name: string, index = 1): string {
  const base = name.replace(/[[\]:*?/\\]/g, " ").trim() || "Export";
  const suffix = index > 1 ? ` (${index})` : "";
  return base.slice(0, 31 - suffix.length) + suffix;
}

function workbookXml(names: string[]): string {
  const sheets = names.map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("");
  return `${XML_DECLARATION}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheets>${sheets}</sheets></workbook>`;
}

function workbookRelsXml(count: number): string {
  let rels = "";
  for (let i = 1; i <= count; i++) rels += `<Relationship Id="rId${i}" Type="${NS_REL}/worksheet" Target="worksheets/sheet${i}.xml"/>`;
  return `${XML_DECLARATION}<Relationships xmlns="${NS_PKG_REL}">${rels}</Relationships>`;
}

const ROOT_RELS = `${XML_DECLARATION}<Relationships xmlns="${NS_PKG_REL}"><Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

function contentTypesXml(count: number): string {
  let sheets = "";
  for (let i = 1; i <= count; i++) sheets += `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`;
  return (
    `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    `${sheets}</Types>`
  );
}

export interface XlsxTable {
  /** The file to write (created or replaced). */
  target: string;
  /** The first sheet's name (made valid here). */
  name: string;
  header: readonly string[];
  /** The rows, batch after batch; the next batch is asked for once the previous one is in the zip. */
  batches: AsyncIterable<readonly (readonly Cell[])[]>;
  /** Rows per sheet, header included (Excel's limit by default; smaller in tests). */
  maxRows?: number;
}

/** Writes the table as an .xlsx file; answers how many rows (header excluded) it wrote. */
export async function writeXlsxTable({ target, name, header, batches, maxRows = XLSX_MAX_ROWS }: XlsxTable): Promise<number> {
  const out = fs.createWriteStream(target);
  const written = finished(out);
  written.catch(() => undefined);
  // Level 1: an export's XML compresses well at it, and the zip keeps up with the rows.
  const zip = new ZipArchive({ zlib: { level: 1 } });
  const zipFailed = new Promise<never>((_, reject) => zip.once("error", reject));
  zipFailed.catch(() => undefined);
  zip.pipe(out);

  const columns = header.map((_, i) => columnName(i));
  const source = batches[Symbol.asyncIterator]();
  // A batch split by a sheet's end: the rest starts the next sheet.
  let carried: readonly (readonly Cell[])[] = [];
  let exhausted = false;
  let rows = 0;

  async function* sheet(): AsyncGenerator<Buffer> {
    let rowNumber = 1;
    yield Buffer.from(SHEET_START + rowXml(rowNumber, header, columns), "utf8");
    while (rowNumber < maxRows) {
      let batch = carried;
      carried = [];
      if (!batch.length) {
        const next = await source.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        batch = next.value;
      }
      const room = maxRows - rowNumber;
      if (batch.length > room) {
        carried = batch.slice(room);
        batch = batch.slice(0, room);
      }
      let xml = "";
      for (const values of batch) xml += rowXml(++rowNumber, values, columns);
      rows += batch.length;
      yield Buffer.from(xml, "utf8");
    }
    if (rowNumber >= maxRows && !carried.length && !exhausted) {
      // The sheet is full: is there anything left for a next one?
      const next = await source.next();
      if (next.done) exhausted = true;
      else carried = next.value;
    }
    yield Buffer.from(SHEET_END, "utf8");
  }

  try {
    const names: string[] = [];
    do {
      names.push(sheetName(name, names.length + 1));
      const part = Readable.from(sheet(), { objectMode: false });
      zip.append(part, { name: `xl/worksheets/sheet${names.length}.xml` });
      await Promise.race([finished(part), zipFailed]);
    } while (!exhausted || carried.length);
    zip.append(workbookXml(names), { name: "xl/workbook.xml" });
    zip.append(workbookRelsXml(names.length), { name: "xl/_rels/workbook.xml.rels" });
    zip.append(ROOT_RELS, { name: "_rels/.rels" });
    zip.append(contentTypesXml(names.length), { name: "[Content_Types].xml" });
    await Promise.race([zip.finalize(), zipFailed]);
    await written;
    return rows;
  } catch (error) {
    zip.abort();
    out.destroy();
    await source.return?.();
    throw error;
  }
}
