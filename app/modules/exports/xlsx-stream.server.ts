import fs from "node:fs";
import ExcelJS from "exceljs";
import type { Cell } from "./format";

/**
 * Writes one-table workbooks with exceljs's streaming writer (decision 055): each row is committed to
 * the sheet's part of the zip as it comes, with inline strings and no styles, so memory stays flat as
 * long as rows come no faster than the zip takes them (an export reads them page by page from the
 * database, which is slower).
 *
 * Excel's limits are kept: at most 1,048,576 rows per sheet (the rows go on in a next sheet, each
 * with the header row) and 32,767 characters per cell; characters XML 1.0 cannot hold are dropped.
 */
export const XLSX_MAX_ROWS = 1_048_576;
const MAX_CELL_LENGTH = 32_767;

// The control characters XML 1.0 forbids, U+FFFE/U+FFFF and unpaired surrogates.
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A cell's text as a sheet may hold it: cut to Excel's length, without what XML cannot hold. */
export function cellText(text: string): string {
  return (text.length > MAX_CELL_LENGTH ? text.slice(0, MAX_CELL_LENGTH) : text).replace(XML_FORBIDDEN, "");
}

function cellValue(value: Cell): string | number | null {
  if (value === null || value === "") return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  return cellText(value);
}

/** A sheet name: at most 31 characters, none of `[]:*?/\`; later sheets end in " (2)", " (3)"... */
export function sheetName(name: string, index = 1): string {
  const base = name.replace(/[[\]:*?/\\]/g, " ").trim() || "Export";
  const suffix = index > 1 ? ` (${index})` : "";
  return base.slice(0, 31 - suffix.length) + suffix;
}

export interface XlsxTable {
  /** The file to write (created or replaced). */
  target: string;
  /** The first sheet's name (made valid here). */
  name: string;
  header: readonly string[];
  /** The rows, batch after batch. */
  batches: AsyncIterable<readonly (readonly Cell[])[]>;
  /** Rows per sheet, header included (Excel's limit by default; smaller in tests). */
  maxRows?: number;
}

/** Writes the table as an .xlsx file; answers how many rows (header excluded) it wrote. */
export async function writeXlsxTable({ target, name, header, batches, maxRows = XLSX_MAX_ROWS }: XlsxTable): Promise<number> {
  const out = fs.createWriteStream(target);
  const failed = new Promise<never>((_, reject) => out.once("error", reject));
  failed.catch(() => undefined);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  let sheets = 0;
  let inSheet = 0;
  let rows = 0;
  const startSheet = () => {
    const sheet = workbook.addWorksheet(sheetName(name, ++sheets), { views: [{ state: "frozen", ySplit: 1 }] });
    sheet.addRow([...header]).commit();
    inSheet = 1;
    return sheet;
  };
  let sheet = startSheet();
  try {
    for await (const batch of batches) {
      for (const values of batch) {
        if (inSheet >= maxRows) {
          sheet.commit();
          sheet = startSheet();
        }
        sheet.addRow(values.map(cellValue)).commit();
        inSheet++;
        rows++;
      }
    }
    sheet.commit();
    await Promise.race([workbook.commit(), failed]);
    return rows;
  } catch (error) {
    out.destroy();
    throw error;
  }
}
