import { describe, expect, it } from "vitest";
import { cellAt, LABELS_PER_SHEET, labelCells } from "./layout";

/**
 * The sheet layout is the Avery 3652 stock the printing screen names (decision 053): A4, 3 columns by
 * 7 rows of 70 x 42.3 mm labels, no gaps, no side margins, 0.45 mm at the top and bottom.
 */
describe("the label sheet layout", () => {
  it("has 21 labels of 70 x 42.3 mm per sheet", () => {
    expect(LABELS_PER_SHEET).toBe(21);
    for (const cell of labelCells(21, { row: 1, column: 1 })) {
      expect(cell.width).toBe(70);
      expect(cell.height).toBeCloseTo(42.3, 6);
      expect(cell.sheet).toBe(0);
    }
  });

  it("tiles the A4 sheet without gaps: 3 x 70 mm wide, 7 x 42.3 mm high from 0.45 mm", () => {
    expect(cellAt(0)).toMatchObject({ row: 1, column: 1 });
    expect(cellAt(0).x).toBeCloseTo(0, 6);
    expect(cellAt(0).y).toBeCloseTo(0.45, 6);
    expect(cellAt(1).x).toBeCloseTo(70, 6);
    expect(cellAt(2).x).toBeCloseTo(140, 6);
    expect(cellAt(3).y).toBeCloseTo(0.45 + 42.3, 6);
    const last = cellAt(20);
    expect(last).toMatchObject({ row: 7, column: 3 });
    expect(last.x + last.width).toBeCloseTo(210, 6);
    expect(last.y + last.height).toBeCloseTo(297 - 0.45, 6);
    expect(cellAt(21)).toMatchObject({ sheet: 1, row: 1, column: 1 });
  });
});
