import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { streamedWorkbook } from "#tests/factories";
import { rejectionOf } from "#tests/service-helpers";
import type { ImportFileError } from "./check.server";
import { readSheet } from "./parse.server";

/**
 * Reading uploaded files into lines (decision 054): CSV as Belgian Excel and the exports write it, and
 * .xlsx workbooks, with the file's own line numbers; both stop reading one line past the 50,000-line
 * limit, which the check then refuses (service.server.test.ts).
 */
const text = (s: string) => new TextEncoder().encode(s);

describe("CSV files", () => {
  it("takes the separator the header line uses most: semicolon, comma or tab (comma on a tie)", async () => {
    expect(await readSheet(text("Name;Description\nRoom, first;x\n"))).toEqual({ header: ["Name", "Description"], lines: [{ line: 2, cells: ["Room, first", "x"] }] });
    expect(await readSheet(text("Name,Description\nA;B,x\n"))).toEqual({ header: ["Name", "Description"], lines: [{ line: 2, cells: ["A;B", "x"] }] });
    expect(await readSheet(text("Name\tDescription\nA,B;C\tx\n"))).toEqual({ header: ["Name", "Description"], lines: [{ line: 2, cells: ["A,B;C", "x"] }] });
    // Separators inside a quoted header cell do not count.
    expect(await readSheet(text('"Name;Nom;Naam",Description\n"a;b",c\n'))).toEqual({ header: ["Name;Nom;Naam", "Description"], lines: [{ line: 2, cells: ["a;b", "c"] }] });
    expect((await readSheet(text("Name;Floor,Wing\nA;1,2\n"))).lines).toEqual([{ line: 2, cells: ["A;1", "2"] }]);
    // The first line with content is the header.
    expect(await readSheet(text("\r\n\nName;Floor\nA, B;1\n"))).toEqual({ header: ["Name", "Floor"], lines: [{ line: 4, cells: ["A, B", "1"] }] });
  });

  it("drops a byte order mark and reads quoted cells with separators, doubled quotes and line breaks; a quote inside an unquoted cell is text", async () => {
    const sheet = await readSheet(text('\ufeffName;Description\r\n"Room; ""A""";"two\r\nlines"\r\n5" pipe;x\r\n'));
    expect(sheet).toEqual({
      header: ["Name", "Description"],
      lines: [
        { line: 2, cells: ['Room; "A"', "two\r\nlines"] },
        { line: 4, cells: ['5" pipe', "x"] },
      ],
    });
  });

  it("numbers lines as the file does: empty lines and lines of empty cells are left out but counted, a record over several lines has its first line's number", async () => {
    const sheet = await readSheet(text('\nName,Floor\n\nA,1\n , \n"B\nb",2\r\rC,3\n\n'));
    expect(sheet).toEqual({
      header: ["Name", "Floor"],
      lines: [
        { line: 4, cells: ["A", "1"] },
        { line: 6, cells: ["B\nb", "2"] },
        { line: 9, cells: ["C", "3"] },
      ],
    });
  });

  it("gives an exported text back as it was (the ' put before =, +, -, @ is dropped), trims cells and drops control characters", async () => {
    const sheet = await readSheet(text("Name,Notes\n'=SUM(A1),'-3\n' kept,  padded \u0001\u0007 \n"));
    expect(sheet.lines).toEqual([
      { line: 2, cells: ["=SUM(A1)", "-3"] },
      { line: 3, cells: ["' kept", "padded"] },
    ]);
  });

  it("refuses a quote never closed, naming the line it was opened on; keeps a quoted cell followed by more text as written", async () => {
    const open = await rejectionOf<ImportFileError>(readSheet(text('Name,Floor\n\nA,1\n"B,2\nC,3\n')));
    expect(open).toMatchObject({ code: "UNREADABLE_LINE", status: 400, messageKey: "imports:errors.unreadableLine", params: { line: 4 } });
    expect((await readSheet(text('Name,Floor\n"B"x,2\n'))).lines).toEqual([{ line: 2, cells: ['"B"x', "2"] }]);
  });

  it("refuses what is not UTF-8 text, and a file of nothing but empty lines", async () => {
    expect((await rejectionOf<ImportFileError>(readSheet(new Uint8Array([0x4e, 0x61, 0, 0x65])))).code).toBe("NOT_A_SPREADSHEET");
    expect((await rejectionOf<ImportFileError>(readSheet(new Uint8Array([0x4e, 0xff, 0xfe, 0x0a])))).code).toBe("NOT_A_SPREADSHEET");
    expect((await rejectionOf<ImportFileError>(readSheet(text("")))).code).toBe("FILE_EMPTY");
    expect((await rejectionOf<ImportFileError>(readSheet(text("\n ; \n;;\n")))).code).toBe("FILE_EMPTY");
  });

  it("stops reading one line past the 50,000-line limit", async () => {
    const sheet = await readSheet(text(`Name\n${Array.from({ length: 60_000 }, (_, i) => `Room ${i + 1}\n`).join("")}`));
    expect(sheet.lines).toHaveLength(50_001);
    expect(sheet.lines.at(-1)).toEqual({ line: 50_002, cells: ["Room 50001"] });
  });
});

describe("xlsx workbooks", () => {
  it("reads the first visible sheet, with the sheet's row numbers, as text", async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet("Lists", { state: "hidden" }).addRow(["Not this one"]);
    const data = book.addWorksheet("Data");
    book.addWorksheet("Example").addRow(["Nor this one"]);
    data.getRow(2).values = ["Name *", "Floor", "Description"];
    data.getRow(3).values = ["  Room A ", 2, { richText: [{ text: "rich " }, { text: "text" }] }];
    data.getRow(5).values = ["Room B", { formula: "1+1", result: 2 }, true];
    data.getRow(6).values = ["", "", ""];
    data.getRow(7).values = ["Room C", null, new Date(Date.UTC(2026, 2, 29))];
    const sheet = await readSheet(new Uint8Array(await book.xlsx.writeBuffer()));
    expect(sheet).toEqual({
      header: ["Name *", "Floor", "Description"],
      lines: [
        { line: 3, cells: ["Room A", "2", "rich text"] },
        { line: 5, cells: ["Room B", "2", "true"] },
        { line: 7, cells: ["Room C", "", "2026-03-29"] },
      ],
    });
  });

  it("stops reading a workbook of 60,000 rows one line past the limit (strings inline or shared)", async () => {
    for (const shared of [false, true]) {
      const sheet = await readSheet(await streamedWorkbook(["Name *"], 60_000, { prefix: "Room", sharedStrings: shared }));
      expect(sheet.header).toEqual(["Name *"]);
      expect(sheet.lines).toHaveLength(50_001);
      expect(sheet.lines.at(-1)).toEqual({ line: 50_002, cells: ["Room 50001"] });
    }
  });

  it("refuses a zip file that is not a workbook", async () => {
    expect((await rejectionOf<ImportFileError>(readSheet(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0])))).code).toBe("NOT_A_SPREADSHEET");
  });
});
