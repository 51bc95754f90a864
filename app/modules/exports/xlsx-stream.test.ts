import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import type { Cell } from "./format";
import { cellText, sheetName, writeXlsxTable } from "./xlsx-stream.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "xlsx-stream-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function* batchesOf(rows: Cell[][], size: number, failAfter?: number): AsyncGenerator<Cell[][]> {
  for (let i = 0; i < rows.length; i += size) {
    if (failAfter !== undefined && i >= failAfter) throw new Error("database gone");
    yield rows.slice(i, i + size);
  }
}

async function read(file: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return workbook.worksheets.map((sheet) => ({
    name: sheet.name,
    rows: sheet.getSheetValues().slice(1).map((row) => (Array.isArray(row) ? row.slice(1) : [])),
    frozen: sheet.views[0]?.state,
  }));
}

describe("the streaming xlsx writer", () => {
  it("drops the characters XML cannot hold, keeping emoji, and cuts a cell at Excel's length", () => {
    expect(cellText("bell\u0007 nul\u0000 tab\t line\n")).toBe("bell nul tab\t line\n");
    expect(cellText("pipe 🔧 lone \uD800 low \uDC00")).toBe("pipe 🔧 lone  low ");
    expect(cellText("x".repeat(40_000))).toHaveLength(32_767);
  });

  it("makes valid, distinct sheet names", () => {
    expect(sheetName("Incidents [2026]: a/b")).toBe("Incidents  2026   a b");
    expect(sheetName("x".repeat(40))).toHaveLength(31);
    expect(sheetName("x".repeat(40), 2)).toBe(`${"x".repeat(27)} (2)`);
    expect(sheetName("???")).toBe("Export");
  });

  it("writes a workbook that a spreadsheet library reads back: header frozen, texts, numbers and blanks", async () => {
    const file = path.join(dir, "one.xlsx");
    const rows: Cell[][] = [
      ["Leak & drip <kitchen> \"x\"\u0007", 3, null],
      ["=1+1 stays text", 0, "Lab 0.01"],
      ["  spaces kept  ", -2.5, "é ç 🔧"],
    ];
    const written = await writeXlsxTable({ target: file, name: "Incidents", header: ["Title", "Occurrences", "Room"], batches: batchesOf(rows, 2) });
    expect(written).toBe(3);
    const [sheet, ...others] = await read(file);
    expect(others).toHaveLength(0);
    expect(sheet.name).toBe("Incidents");
    expect(sheet.frozen).toBe("frozen");
    expect(sheet.rows).toEqual([["Title", "Occurrences", "Room"], ["Leak & drip <kitchen> \"x\"", 3], ["=1+1 stays text", 0, "Lab 0.01"], ["  spaces kept  ", -2.5, "é ç 🔧"]]);
  });

  it("goes on in a next sheet, with the header again, past a sheet's row limit, and makes no empty sheet", async () => {
    const rows: Cell[][] = Array.from({ length: 5 }, (_, i) => [`row ${i + 1}`]);
    const file = path.join(dir, "split.xlsx");
    // Three rows per sheet: the header and two rows; batches of 3 cross the sheets' ends.
    expect(await writeXlsxTable({ target: file, name: "Rooms", header: ["Name"], batches: batchesOf(rows, 3), maxRows: 3 })).toBe(5);
    expect(await read(file)).toEqual([
      { name: "Rooms", rows: [["Name"], ["row 1"], ["row 2"]], frozen: "frozen" },
      { name: "Rooms (2)", rows: [["Name"], ["row 3"], ["row 4"]], frozen: "frozen" },
      { name: "Rooms (3)", rows: [["Name"], ["row 5"]], frozen: "frozen" },
    ]);
    const exact = path.join(dir, "exact.xlsx");
    expect(await writeXlsxTable({ target: exact, name: "Rooms", header: ["Name"], batches: batchesOf(rows.slice(0, 4), 2), maxRows: 3 })).toBe(4);
    expect((await read(exact)).map((s) => s.name)).toEqual(["Rooms", "Rooms (2)"]);
  });

  it("writes the header alone when there are no rows", async () => {
    const file = path.join(dir, "empty.xlsx");
    expect(await writeXlsxTable({ target: file, name: "Users", header: ["Name", "Email"], batches: batchesOf([], 10) })).toBe(0);
    expect(await read(file)).toEqual([{ name: "Users", rows: [["Name", "Email"]], frozen: "frozen" }]);
  });

  it("fails with the rows' error when reading them fails midway", async () => {
    const rows: Cell[][] = Array.from({ length: 10 }, (_, i) => [i]);
    await expect(writeXlsxTable({ target: path.join(dir, "failed.xlsx"), name: "X", header: ["N"], batches: batchesOf(rows, 2, 6) })).rejects.toThrow("database gone");
  });
});
