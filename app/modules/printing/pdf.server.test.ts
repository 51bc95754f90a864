import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { LABEL_HEIGHT_MM, LABEL_PADDING_MM, LABEL_WIDTH_MM, LABELS_PER_SHEET, labelCells, PT_PER_MM, SHEET_HEIGHT_MM, sheetCount, type StartCell } from "./layout";
import { logoArea, modulePath, QR_QUIET, type QrSticker, renderImageSheets, renderQrSheets, stickerBoxes } from "./pdf.server";

/**
 * The sheets read back: the PDF's uncompressed content streams are interpreted (q/Q/cm, paths and
 * fills, text matrices) into shapes and text in millimetres from the sheet's top-left corner, then
 * checked against the documented label geometry; and pages rendered by pdftoppm have every code sampled
 * module by module against the matrix of its report address.
 */

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];
const apply = (m: Matrix, x: number, y: number) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]] as const;

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface Shape extends Box {
  color: string;
}
interface Text {
  x: number;
  y: number;
  size: number;
  text: string;
}
interface Page {
  shapes: Shape[];
  texts: Text[];
}

const heightPt = SHEET_HEIGHT_MM * PT_PER_MM;
/** Page points (origin bottom-left) to sheet millimetres (origin top-left). */
const toMm = (x: number, y: number) => [x / PT_PER_MM, (heightPt - y) / PT_PER_MM] as const;

/** The page content streams of an uncompressed pdfkit PDF, in page order. */
function contentStreams(pdf: Buffer): string[] {
  const text = pdf.toString("latin1");
  const objects = new Map<number, string>();
  for (const m of text.matchAll(/(\d+) 0 obj\n([\s\S]*?)\nendobj/g)) objects.set(Number(m[1]), m[2]);
  const pagesRoot = [...objects.values()].find((o) => /\/Type \/Pages/.test(o))!;
  const kids = [...pagesRoot.match(/\/Kids \[([^\]]*)\]/)![1].matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
  return kids.map((kid) => {
    const page = objects.get(kid)!;
    const ref = Number(page.match(/\/Contents (\d+) 0 R/)![1]);
    const body = objects.get(ref)!;
    return body.slice(body.indexOf("stream\n") + 7, body.lastIndexOf("\nendstream"));
  });
}

/** Interprets one content stream: fills as bounding boxes with their colour, text runs at their origin. */
function interpret(stream: string): Page {
  const tokens = stream.match(/\[[^\]]*\]|<[0-9a-fA-F]*>|\/[^\s/[\]<>()]+|[^\s[\]<>]+/g) ?? [];
  const shapes: Shape[] = [];
  const texts: Text[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let tm: Matrix = [1, 0, 0, 1, 0, 0];
  let fill = "0 0 0";
  let size = 0;
  // The subpaths of the current path (a rectangle, or what a move starts), each as its bounding box.
  let path: Box[] = [];
  let operands: string[] = [];
  const point = (x: number, y: number, fresh = false) => {
    const [dx, dy] = toMm(...apply(ctm, x, y));
    const last = path[path.length - 1];
    if (fresh || !last) path.push({ x0: dx, y0: dy, x1: dx, y1: dy });
    else Object.assign(last, { x0: Math.min(last.x0, dx), y0: Math.min(last.y0, dy), x1: Math.max(last.x1, dx), y1: Math.max(last.y1, dy) });
  };
  const num = (i: number) => Number(operands[i]);
  for (const token of tokens) {
    if (/^[-+.\d]/.test(token) || token.startsWith("/") || token.startsWith("[") || token.startsWith("<")) {
      operands.push(token);
      continue;
    }
    switch (token) {
      case "q":
        stack.push(ctm);
        break;
      case "Q":
        ctm = stack.pop()!;
        break;
      case "cm":
        ctm = multiply([num(0), num(1), num(2), num(3), num(4), num(5)], ctm);
        break;
      case "rg":
      case "sc":
      case "scn":
        fill = operands.map((v) => Number(Number(v).toFixed(3))).join(" ");
        break;
      case "re": {
        const [x, y, w, h] = [num(0), num(1), num(2), num(3)];
        point(x, y, true);
        point(x + w, y + h);
        break;
      }
      case "m":
        point(num(0), num(1), true);
        break;
      case "l":
        point(num(0), num(1));
        break;
      case "c":
        point(num(0), num(1));
        point(num(2), num(3));
        point(num(4), num(5));
        break;
      case "f":
      case "F":
      case "f*":
        for (const box of path) shapes.push({ ...box, color: fill });
        path = [];
        break;
      case "n":
        path = [];
        break;
      case "BT":
        tm = [1, 0, 0, 1, 0, 0];
        break;
      case "Tm":
        tm = [num(0), num(1), num(2), num(3), num(4), num(5)];
        break;
      case "Tf":
        size = num(1);
        break;
      case "TJ":
      case "Tj": {
        const hex = operands.join(" ").match(/<([0-9a-fA-F]*)>/g) ?? [];
        const value = hex.map((h) => Buffer.from(h.slice(1, -1), "hex").toString("latin1")).join("");
        const [x, y] = toMm(...apply(multiply(tm, ctm), 0, 0));
        texts.push({ x, y, size, text: value });
        break;
      }
    }
    operands = [];
  }
  return { shapes, texts };
}

const measure = new PDFDocument({ autoFirstPage: false });
/** A text run's width in mm, measured in the wider of the two fonts the stickers use. */
const widthMm = (text: string, size: number) => measure.font("Helvetica-Bold").fontSize(size).widthOfString(text) / PT_PER_MM;

const ORIGIN = "https://caretaker.example";
const stickersOf = (count: number): QrSticker[] =>
  Array.from({ length: count }, (_, i) => ({
    url: `${ORIGIN}/report/${(1000000000000 + i * 7919).toString(32).toUpperCase().padStart(13, "2")}`,
    lines: [`Room ${i + 1} of the long corridor on the east wing`, "Main building", "Floor 2", `CODE${i}`],
  }));
const colors = { background: "#1e3a8a", text: "#ffffff" };
const EPS = 0.05;
const inside = (box: Box, area: { x: number; y: number; width: number; height: number }) =>
  box.x0 >= area.x - EPS && box.y0 >= area.y - EPS && box.x1 <= area.x + area.width + EPS && box.y1 <= area.y + area.height + EPS;

function checkGeometry(pdf: Buffer, count: number, start: StartCell) {
  const pages = contentStreams(pdf).map(interpret);
  const cells = labelCells(count, start);
  expect(pages).toHaveLength(sheetCount(count, start));
  pages.forEach((page, sheet) => {
    const onSheet = cells.filter((c) => c.sheet === sheet);
    // One background (the label's padded area, in the sticker colour) per sticker, exactly in its cell.
    const backgrounds = page.shapes.filter((s) => s.color !== "1 1 1" && s.color !== "0 0 0");
    expect(backgrounds).toHaveLength(onSheet.length);
    for (const cell of onSheet) {
      const { inner, qr, text } = stickerBoxes(cell);
      const padded = { x: cell.x + LABEL_PADDING_MM, y: cell.y + LABEL_PADDING_MM, width: LABEL_WIDTH_MM - 2 * LABEL_PADDING_MM, height: LABEL_HEIGHT_MM - 2 * LABEL_PADDING_MM };
      const background = backgrounds.filter((b) => inside(b, padded));
      expect(background, `sticker ${cell.index} background in row ${cell.row} column ${cell.column}`).toHaveLength(1);
      expect(background[0].x0).toBeCloseTo(inner.x, 1);
      expect(background[0].y0).toBeCloseTo(inner.y, 1);
      // The white square and the dark modules of its code lie inside the code's square.
      const dark = page.shapes.filter((s) => s.color === "0 0 0" && inside(s, padded));
      expect(dark.length).toBeGreaterThan(20);
      for (const d of dark) expect(inside(d, qr)).toBe(true);
      // Every text run starts in the text box and ends inside it.
      const runs = page.texts.filter((t) => t.x >= cell.x && t.x < cell.x + cell.width && t.y >= cell.y && t.y < cell.y + cell.height);
      expect(runs.length).toBeGreaterThanOrEqual(4);
      for (const run of runs) {
        expect(run.x).toBeCloseTo(text.x, 1);
        expect(run.x + widthMm(run.text, run.size)).toBeLessThanOrEqual(text.x + text.width + EPS);
        expect(run.y).toBeGreaterThan(text.y);
        expect(run.y).toBeLessThanOrEqual(text.y + text.height + EPS);
      }
    }
    // Nothing is drawn outside the padded areas of the stickers of the sheet.
    for (const shape of page.shapes) {
      expect(onSheet.some((c) => inside(shape, { x: c.x + LABEL_PADDING_MM, y: c.y + LABEL_PADDING_MM, width: LABEL_WIDTH_MM - 2 * LABEL_PADDING_MM, height: LABEL_HEIGHT_MM - 2 * LABEL_PADDING_MM }))).toBe(true);
    }
  });
}

describe("QR sticker sheets read back", () => {
  it("lays 21 stickers from row 1 column 1 in their cells, within the label padding", async () => {
    const pdf = await renderQrSheets(stickersOf(21), { start: { row: 1, column: 1 }, colors, logo: null, compress: false });
    checkGeometry(pdf, 21, { row: 1, column: 1 });
  });

  it("starts at row 7 (column 2) of a used sheet and goes on at the top of the next", async () => {
    const start = { row: 7, column: 2 };
    const pdf = await renderQrSheets(stickersOf(5), { start, colors, logo: null, compress: false });
    checkGeometry(pdf, 5, start);
    const cells = labelCells(5, start);
    expect(cells.map((c) => [c.sheet, c.row, c.column])).toEqual([
      [0, 7, 2],
      [0, 7, 3],
      [1, 1, 1],
      [1, 1, 2],
      [1, 1, 3],
    ]);
  });

  it("leaves the rest of a partial last sheet blank", async () => {
    const count = LABELS_PER_SHEET * 2 + 4;
    const pdf = await renderQrSheets(stickersOf(count), { start: { row: 1, column: 1 }, colors, logo: null, compress: false });
    checkGeometry(pdf, count, { row: 1, column: 1 });
    const last = interpret(contentStreams(pdf)[2]);
    expect(last.shapes.filter((s) => s.color === "0.118 0.227 0.541")).toHaveLength(4);
  });

  it("moves every label by the calibration offset", async () => {
    const offset = { x: 1.5, y: -0.8 };
    const pdf = await renderQrSheets(stickersOf(3), { start: { row: 1, column: 1 }, offset, colors, logo: null, compress: false });
    const page = interpret(contentStreams(pdf)[0]);
    const backgrounds = page.shapes.filter((s) => s.color !== "1 1 1" && s.color !== "0 0 0");
    const cells = labelCells(3, { row: 1, column: 1 }, offset);
    backgrounds.forEach((b, i) => {
      expect(b.x0).toBeCloseTo(stickerBoxes(cells[i]).inner.x, 1);
      expect(b.y0).toBeCloseTo(stickerBoxes(cells[i]).inner.y, 1);
    });
  });

  it("draws each run of dark modules once: the path redrawn is the code's matrix", () => {
    const modules = QRCode.create(`${ORIGIN}/report/K7QW2MZP9XH4C`, { errorCorrectionLevel: "M" }).modules;
    const drawn = Array.from({ length: modules.size }, () => new Array<boolean>(modules.size).fill(false));
    const rects = modulePath(modules).split("\n");
    for (const rect of rects) {
      const [x, y, w, h] = rect.split(" ").map(Number);
      for (let r = y; r < y + h; r++) for (let c = x; c < x + w; c++) drawn[r][c] = true;
    }
    for (let r = 0; r < modules.size; r++) for (let c = 0; c < modules.size; c++) expect(drawn[r][c]).toBe(Boolean(modules.get(r, c)));
    let dark = 0;
    for (let i = 0; i < modules.size * modules.size; i++) dark += modules.data[i] ? 1 : 0;
    expect(rects.length).toBeLessThan(dark / 2);
  });
});

describe("QR codes decoded from the printed page", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "printing-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const DPI = 150;
  const px = (mm: number) => (mm / 25.4) * DPI;

  /** The page rendered by pdftoppm, as grey pixels. */
  async function renderPage(pdf: Buffer, page: number) {
    const file = path.join(dir, `sheet-${Date.now()}-${page}.pdf`);
    fs.writeFileSync(file, pdf);
    execFileSync("pdftoppm", ["-r", String(DPI), "-png", "-f", String(page), "-l", String(page), "-singlefile", file, file]);
    const { data, info } = await sharp(`${file}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  }

  /** Samples each module's centre of the code in `cell` and compares it with the matrix of `url`. */
  function decodeCell(image: { data: Buffer; width: number }, cell: ReturnType<typeof labelCells>[number], url: string, withLogo: boolean) {
    const modules = QRCode.create(url, { errorCorrectionLevel: withLogo ? "H" : "M" }).modules;
    const { qr } = stickerBoxes(cell);
    const unit = qr.width / (modules.size + 2 * QR_QUIET);
    const area = withLogo ? logoArea(modules.size) : null;
    let mismatches = 0;
    let sampled = 0;
    for (let r = 0; r < modules.size; r++) {
      for (let c = 0; c < modules.size; c++) {
        if (area && r >= area.from && r < area.to && c >= area.from && c < area.to) continue;
        const x = Math.round(px(qr.x + (QR_QUIET + c + 0.5) * unit));
        const y = Math.round(px(qr.y + (QR_QUIET + r + 0.5) * unit));
        const dark = image.data[y * image.width + x] < 128;
        sampled++;
        if (dark !== Boolean(modules.get(r, c))) mismatches++;
      }
    }
    // The quiet zone around the code is white.
    for (let k = 0; k < modules.size + 2 * QR_QUIET; k++) {
      const x = Math.round(px(qr.x + (k + 0.5) * unit));
      const y = Math.round(px(qr.y + 0.5 * unit));
      expect(image.data[y * image.width + x]).toBeGreaterThan(128);
    }
    return { mismatches, sampled };
  }

  it("reads back every code of a sheet started at row 3 as its report address", async () => {
    const start = { row: 3, column: 2 };
    const stickers = stickersOf(14);
    const pdf = await renderQrSheets(stickers, { start, colors, logo: null });
    const image = await renderPage(pdf, 1);
    const cells = labelCells(stickers.length, start);
    for (const cell of cells) {
      const { mismatches, sampled } = decodeCell(image, cell, stickers[cell.index].url, false);
      expect(sampled).toBeGreaterThan(600);
      expect(mismatches, `code ${cell.index} at row ${cell.row} column ${cell.column}`).toBe(0);
      // Another sticker's address does not match this code.
      const other = decodeCell(image, cell, stickers[(cell.index + 1) % stickers.length].url, false);
      expect(other.mismatches).toBeGreaterThan(50);
    }
  }, 60_000);

  it("reads back the codes of a second sheet, and codes with the logo (level H) around the covered centre", async () => {
    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#e11d48" } }).png().toBuffer();
    const stickers = stickersOf(24);
    const pdf = await renderQrSheets(stickers, { start: { row: 1, column: 1 }, colors, logo });
    const image = await renderPage(pdf, 2);
    for (const cell of labelCells(stickers.length, { row: 1, column: 1 }).filter((c) => c.sheet === 1)) {
      expect(decodeCell(image, cell, stickers[cell.index].url, true).mismatches).toBe(0);
    }
  }, 60_000);
});

describe("explanatory sticker sheets", () => {
  it("places N copies of the image from the starting cell, each inside its label padding", async () => {
    const image = await sharp({ create: { width: 172, height: 296, channels: 3, background: "#16a34a" } }).png().toBuffer();
    const start = { row: 7, column: 1 };
    const pdf = await renderImageSheets(image, 5, { start, compress: false });
    const streams = contentStreams(pdf);
    expect(streams).toHaveLength(2);
    // Each copy is one image drawn (`Do`) under its own transformation: its unit square lands in the cell.
    const cells = labelCells(5, start);
    const placed = streams.flatMap((stream, sheet) => {
      const out: { sheet: number; box: Box }[] = [];
      const tokens = stream.split(/\s+/);
      const stack: Matrix[] = [];
      let ctm: Matrix = [1, 0, 0, 1, 0, 0];
      for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i];
        if (t === "q") stack.push(ctm);
        else if (t === "Q") ctm = stack.pop()!;
        else if (t === "cm") ctm = multiply(tokens.slice(i - 6, i).map(Number) as Matrix, ctm);
        else if (t === "Do") {
          const corners = [apply(ctm, 0, 0), apply(ctm, 1, 1)].map(([x, y]) => toMm(x, y));
          out.push({ sheet, box: { x0: Math.min(corners[0][0], corners[1][0]), y0: Math.min(corners[0][1], corners[1][1]), x1: Math.max(corners[0][0], corners[1][0]), y1: Math.max(corners[0][1], corners[1][1]) } });
        }
      }
      return out;
    });
    expect(placed).toHaveLength(5);
    placed.forEach(({ sheet, box }, i) => {
      const cell = cells[i];
      expect(sheet).toBe(cell.sheet);
      expect(inside(box, { x: cell.x + LABEL_PADDING_MM, y: cell.y + LABEL_PADDING_MM, width: LABEL_WIDTH_MM - 2 * LABEL_PADDING_MM, height: LABEL_HEIGHT_MM - 2 * LABEL_PADDING_MM })).toBe(true);
      // Turned a quarter, the portrait image fills the label's height.
      expect(box.y1 - box.y0).toBeCloseTo(LABEL_HEIGHT_MM - 2 * LABEL_PADDING_MM, 1);
    });
  });
});
