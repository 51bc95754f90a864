import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { logger } from "~/lib/logger.server";
import { bytesOf } from "~/lib/pdf-document.server";
import { pdfText } from "~/lib/pdf-text";
import { type LabelCell, LABEL_HEIGHT_MM, LABEL_PADDING_MM, LABEL_WIDTH_MM, labelCells, type Offset, PT_PER_MM, SHEET_HEIGHT_MM, SHEET_WIDTH_MM, type StartCell } from "./layout";

/**
 * The sticker sheets as PDF (decision 053), drawn with pdfkit on the A4 21-up geometry of ./layout.ts.
 * QR codes are vector paths: the module matrix of `qrcode`'s `create()`, each run of dark modules of a
 * row one rectangle (runs repeated on the rows below grow into one taller rectangle), written in module
 * units under one transformation per code, so a sheet stays small and sharp at any printer resolution.
 *
 * A QR sticker: the label's inner area (LABEL_PADDING_MM inside its edges) in the background colour with
 * rounded corners; on its left a white square holding the code with a quiet zone of QR_QUIET modules;
 * on its right the label lines (the first in bold, up to two lines; the others one line each, cut with
 * an ellipsis). With the logo the code uses error correction H and the logo covers the centre
 * (LOGO_SHARE of its side, on white); without it, M.
 */

/** Quiet zone around a code, in modules (the white square is the rest of the zone). */
export const QR_QUIET = 2;
/** The share of a code's side the logo covers: its area stays well under what level H restores (30 %). */
export const LOGO_SHARE = 0.22;
/** Inside the padded area: the gap between its edge and the code's white square (mm). */
export const INNER_MM = 1.5;
/** Gap between the code's square and the text (mm). */
export const TEXT_GAP_MM = 2;
const CORNER_MM = 2;

export interface QrSticker {
  /** The report address the code holds. */
  url: string;
  /** The label lines, translated, the first being the name. */
  lines: string[];
}

export interface SheetOptions {
  start: StartCell;
  /** The printer's calibration offset (mm). */
  offset?: Offset;
  /** Uncompressed content streams (tests read them back). */
  compress?: boolean;
  title?: string;
}

export interface QrSheetOptions extends SheetOptions {
  colors: { background: string; text: string };
  /** PNG or JPEG bytes of the logo for the centre, or null. */
  logo: Buffer | null;
}

/** Where a QR sticker's parts go inside its cell (mm, page coordinates): the tests check against it. */
export function stickerBoxes(cell: Pick<LabelCell, "x" | "y">) {
  const inner = { x: cell.x + LABEL_PADDING_MM, y: cell.y + LABEL_PADDING_MM, width: LABEL_WIDTH_MM - 2 * LABEL_PADDING_MM, height: LABEL_HEIGHT_MM - 2 * LABEL_PADDING_MM };
  const side = inner.height - 2 * INNER_MM;
  const qr = { x: inner.x + INNER_MM, y: inner.y + INNER_MM, width: side, height: side };
  const textX = qr.x + side + TEXT_GAP_MM;
  const text = { x: textX, y: qr.y, width: inner.x + inner.width - INNER_MM - textX, height: side };
  return { inner, qr, text };
}

const mm = (v: number) => v * PT_PER_MM;

/** An image opened once and drawn many times (pdfkit embeds it once; its types omit `openImage`). */
interface OpenedImage {
  width: number;
  height: number;
}
function openImage(doc: PDFKit.PDFDocument, bytes: Buffer): OpenedImage {
  return (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(bytes);
}
/** `doc.image` takes an opened image as well as bytes. */
const asSource = (image: OpenedImage) => image as unknown as Buffer;

function newDocument(options: SheetOptions) {
  const doc = new PDFDocument({
    size: [mm(SHEET_WIDTH_MM), mm(SHEET_HEIGHT_MM)],
    margin: 0,
    autoFirstPage: false,
    compress: options.compress ?? true,
    info: { Title: pdfText(options.title ?? "Caretaker"), Creator: "Caretaker" },
  });
  return { doc, done: bytesOf(doc) };
}

/** Adds pages up to `sheet` (0-based). */
function pageFor(doc: PDFKit.PDFDocument, state: { pages: number }, sheet: number) {
  while (state.pages <= sheet) {
    doc.addPage({ size: [mm(SHEET_WIDTH_MM), mm(SHEET_HEIGHT_MM)], margin: 0 });
    state.pages++;
  }
}

/**
 * The path of a code's dark modules in module units: one `re` per run of a row, runs repeated on the
 * next rows merged downwards. Exported for the tests (they draw it back into a matrix).
 */
export function modulePath(modules: { size: number; get(row: number, col: number): number | boolean }, skip?: (row: number, col: number) => boolean): string {
  const size = modules.size;
  // Open rectangles by "start,length" of the previous row: [x, y, w, h].
  let open = new Map<number, [number, number, number, number]>();
  const out: string[] = [];
  for (let row = 0; row < size; row++) {
    const next = new Map<number, [number, number, number, number]>();
    let col = 0;
    while (col < size) {
      if (!modules.get(row, col) || skip?.(row, col)) {
        col++;
        continue;
      }
      const from = col;
      while (col < size && modules.get(row, col) && !skip?.(row, col)) col++;
      const key = from * 1024 + (col - from);
      const rect = open.get(key);
      if (rect) {
        rect[3]++;
        open.delete(key);
        next.set(key, rect);
      } else {
        next.set(key, [from, row, col - from, 1]);
      }
    }
    for (const [x, y, w, h] of open.values()) out.push(`${x} ${y} ${w} ${h} re`);
    open = next;
  }
  for (const [x, y, w, h] of open.values()) out.push(`${x} ${y} ${w} ${h} re`);
  return out.join("\n");
}

/** The modules the logo covers (a centred square), so that none is drawn under it. */
export function logoArea(size: number): { from: number; to: number } {
  const covered = Math.ceil(size * LOGO_SHARE);
  // Odd sizes centre on a module: keep the cover's parity so it stays centred.
  const n = covered % 2 === size % 2 ? covered : covered + 1;
  const from = (size - n) / 2;
  return { from, to: from + n };
}

/** The QR sticker sheets: one sticker per entry of `stickers`, from `options.start` on. */
export async function renderQrSheets(stickers: QrSticker[], options: QrSheetOptions): Promise<Buffer> {
  const { doc, done } = newDocument(options);
  const cells = labelCells(stickers.length, options.start, options.offset);
  const state = { pages: 0 };
  let logo: OpenedImage | null = null;
  if (options.logo) {
    try {
      logo = openImage(doc, options.logo);
    } catch (err) {
      logger().warn({ err }, "printing: the logo could not be read");
    }
  }
  const background = options.colors.background;
  const ink = options.colors.text;
  for (const cell of cells) {
    pageFor(doc, state, cell.sheet);
    const sticker = stickers[cell.index];
    const { inner, qr, text } = stickerBoxes(cell);
    doc.roundedRect(mm(inner.x), mm(inner.y), mm(inner.width), mm(inner.height), mm(CORNER_MM)).fill(background);
    doc.rect(mm(qr.x), mm(qr.y), mm(qr.width), mm(qr.height)).fill("#ffffff");
    const code = QRCode.create(sticker.url, { errorCorrectionLevel: logo ? "H" : "M" });
    const size = code.modules.size;
    const unit = mm(qr.width) / (size + 2 * QR_QUIET);
    const area = logo ? logoArea(size) : null;
    const covered = area ? (r: number, c: number) => r >= area.from && r < area.to && c >= area.from && c < area.to : undefined;
    const path = modulePath(code.modules, covered);
    doc.save();
    doc.fillColor("#000000");
    doc.transform(unit, 0, 0, unit, mm(qr.x) + QR_QUIET * unit, mm(qr.y) + QR_QUIET * unit);
    doc.addContent(path);
    doc.addContent("f");
    doc.restore();
    if (logo && area) {
      const x = mm(qr.x) + (QR_QUIET + area.from) * unit;
      const y = mm(qr.y) + (QR_QUIET + area.from) * unit;
      const side = (area.to - area.from) * unit;
      try {
        doc.image(asSource(logo), x + unit * 0.5, y + unit * 0.5, { fit: [side - unit, side - unit], align: "center", valign: "center" });
      } catch (err) {
        logger().warn({ err }, "printing: the logo could not be drawn");
      }
    }
    drawLines(doc, sticker.lines, text, ink);
  }
  if (state.pages === 0) pageFor(doc, state, 0);
  doc.end();
  return done;
}

const NAME_SIZE = 9;
const LINE_SIZE = 7.5;

/** The label lines in the text box: the name in bold on up to two lines, the others one line each. */
function drawLines(doc: PDFKit.PDFDocument, lines: string[], box: { x: number; y: number; width: number; height: number }, color: string) {
  const width = mm(box.width);
  let y = mm(box.y) + 1;
  const bottom = mm(box.y + box.height);
  doc.fillColor(color);
  lines.forEach((raw, i) => {
    const value = pdfText(raw).replace(/\s+/g, " ").trim();
    if (!value) return;
    const bold = i === 0;
    const size = bold ? NAME_SIZE : LINE_SIZE;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(size);
    const height = size * 1.2;
    const parts = bold ? wrap(doc, value, width, 2) : [fit(doc, value, width)];
    for (const part of parts) {
      if (y + height > bottom) return;
      doc.text(part, mm(box.x), y, { lineBreak: false });
      y += height;
    }
    y += 1;
  });
}

/** `value` cut to `width` with an ellipsis. */
function fit(doc: PDFKit.PDFDocument, value: string, width: number): string {
  if (doc.widthOfString(value) <= width) return value;
  let low = 0;
  let high = value.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.widthOfString(`${value.slice(0, mid).trimEnd()}...`) <= width) low = mid;
    else high = mid - 1;
  }
  return `${value.slice(0, low).trimEnd()}...`;
}

/** `value` on at most `max` lines of `width`, words kept whole where they fit; the last line cut. */
function wrap(doc: PDFKit.PDFDocument, value: string, width: number, max: number): string[] {
  if (doc.widthOfString(value) <= width) return [value];
  const words = value.split(" ");
  const lines: string[] = [];
  let line = "";
  for (let i = 0; i < words.length; i++) {
    const candidate = line ? `${line} ${words[i]}` : words[i];
    if (doc.widthOfString(candidate) <= width || !line) {
      line = candidate;
      continue;
    }
    lines.push(line);
    line = words[i];
    if (lines.length === max - 1) {
      line = words.slice(i).join(" ");
      break;
    }
  }
  lines.push(line);
  return lines.slice(0, max).map((l) => fit(doc, l, width));
}

/**
 * The explanatory sticker sheets: the entity's sticker image, `copies` times from `options.start` on,
 * fitted inside each label's padded area (centred, its proportions kept). A portrait image on the
 * landscape label is turned a quarter (the suggested 172 by 296 pixels then fills the label).
 */
export async function renderImageSheets(image: Buffer, copies: number, options: SheetOptions): Promise<Buffer> {
  const { doc, done } = newDocument(options);
  const picture = openImage(doc, image);
  const cells = labelCells(copies, options.start, options.offset);
  const state = { pages: 0 };
  const box = { width: mm(LABEL_WIDTH_MM - 2 * LABEL_PADDING_MM), height: mm(LABEL_HEIGHT_MM - 2 * LABEL_PADDING_MM) };
  const turn = picture.height > picture.width;
  for (const cell of cells) {
    pageFor(doc, state, cell.sheet);
    const x = mm(cell.x + LABEL_PADDING_MM);
    const y = mm(cell.y + LABEL_PADDING_MM);
    if (!turn) {
      doc.image(asSource(picture), x, y, { fit: [box.width, box.height], align: "center", valign: "center" });
      continue;
    }
    // Turned: the box's height is the image's width.
    const scale = Math.min(box.height / picture.width, box.width / picture.height);
    const w = picture.width * scale;
    const h = picture.height * scale;
    const cx = x + box.width / 2;
    const cy = y + box.height / 2;
    doc.save();
    doc.rotate(-90, { origin: [cx, cy] });
    doc.image(asSource(picture), cx - w / 2, cy - h / 2, { width: w, height: h });
    doc.restore();
  }
  if (state.pages === 0) pageFor(doc, state, 0);
  doc.end();
  return done;
}
