/**
 * The label sheet (decision 053): A4 (210 x 297 mm) with 21 labels of 70 x 42.3 mm, 3 columns by 7 rows,
 * no gaps between labels, no side margins and 0.45 mm at the top and bottom. Nothing is drawn within
 * LABEL_PADDING_MM of a label's edge, so a sheet fed a little askew still cuts no sticker. The printer's
 * calibration offset (per entity) moves every label. Client-safe: the preview uses it too.
 *
 * Positions are millimetres from the sheet's top-left corner.
 */
export const SHEET_WIDTH_MM = 210;
export const SHEET_HEIGHT_MM = 297;
export const COLUMNS = 3;
export const ROWS = 7;
/** SPEC.md section 9: 21 stickers per sheet. */
export const LABELS_PER_SHEET = COLUMNS * ROWS;
export const LABEL_WIDTH_MM = 70;
export const LABEL_HEIGHT_MM = 42.3;
export const SHEET_MARGIN_X_MM = (SHEET_WIDTH_MM - COLUMNS * LABEL_WIDTH_MM) / 2;
export const SHEET_MARGIN_Y_MM = (SHEET_HEIGHT_MM - ROWS * LABEL_HEIGHT_MM) / 2;
/** The blank border inside each label: everything printed lies inside it. */
export const LABEL_PADDING_MM = 3;
/** The largest calibration offset, either way (mm). */
export const MAX_OFFSET_MM = 10;
/** Points per millimetre (PDF units). */
export const PT_PER_MM = 72 / 25.4;

export interface StartCell {
  /** 1 to 7. */
  row: number;
  /** 1 to 3. */
  column: number;
}

export interface Offset {
  x: number;
  y: number;
}

export interface LabelCell {
  /** 0-based index of the sticker. */
  index: number;
  /** 0-based sheet (page). */
  sheet: number;
  /** 1-based row and column on the sheet. */
  row: number;
  column: number;
  /** Top-left corner and size, in mm. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The 0-based position on the first sheet where the first sticker goes. */
export function startSlot(start: StartCell): number {
  return (start.row - 1) * COLUMNS + (start.column - 1);
}

/** How many sheets `count` stickers take from `start`. */
export function sheetCount(count: number, start: StartCell): number {
  return count <= 0 ? 0 : Math.ceil((startSlot(start) + count) / LABELS_PER_SHEET);
}

/** The cell of the sticker at `slot` (0-based over all sheets, the skipped cells of the first sheet included). */
export function cellAt(slot: number, offset: Offset = { x: 0, y: 0 }): Omit<LabelCell, "index"> {
  const sheet = Math.floor(slot / LABELS_PER_SHEET);
  const onSheet = slot % LABELS_PER_SHEET;
  const row = Math.floor(onSheet / COLUMNS) + 1;
  const column = (onSheet % COLUMNS) + 1;
  return {
    sheet,
    row,
    column,
    x: SHEET_MARGIN_X_MM + (column - 1) * LABEL_WIDTH_MM + offset.x,
    y: SHEET_MARGIN_Y_MM + (row - 1) * LABEL_HEIGHT_MM + offset.y,
    width: LABEL_WIDTH_MM,
    height: LABEL_HEIGHT_MM,
  };
}

/** The cells of `count` stickers from `start` on the first sheet, then from the top of each next sheet. */
export function labelCells(count: number, start: StartCell, offset: Offset = { x: 0, y: 0 }): LabelCell[] {
  const first = startSlot(start);
  const cells: LabelCell[] = [];
  for (let index = 0; index < count; index++) cells.push({ index, ...cellAt(first + index, offset) });
  return cells;
}

/**
 * The first sheet as the preview draws it: for each of the 21 cells (row by row), whether it is left
 * blank (already used), gets a sticker, or stays empty after the last sticker.
 */
export function firstSheetPlan(count: number, start: StartCell): ("skipped" | "sticker" | "empty")[] {
  const first = startSlot(start);
  return Array.from({ length: LABELS_PER_SHEET }, (_, slot) => (slot < first ? "skipped" : slot < first + count ? "sticker" : "empty"));
}
