import { describe, expect, it } from "vitest";
import { equipmentRowsOf, newEquipmentRows } from "./equipment-rows";

describe("quantity dialog rows", () => {
  const chair = { id: 7, name: "Chair" };

  it("numbers the new items from 1 in an empty room", () => {
    expect(newEquipmentRows([], chair, 2)).toEqual([
      { equipmentTypeId: "7", internalReference: "Chair 1" },
      { equipmentTypeId: "7", internalReference: "Chair 2" },
    ]);
  });

  it("continues the numbering of the same generic equipment, after the highest number or the count", () => {
    const current = [
      { id: "1", equipmentTypeId: "7", internalReference: "Chair 1" },
      { equipmentTypeId: "9", internalReference: "Table 1" },
      { equipmentTypeId: "7", internalReference: "chair 5" },
    ];
    expect(newEquipmentRows(current, chair, 1)).toEqual([{ equipmentTypeId: "7", internalReference: "Chair 6" }]);
    const renamed = [
      { equipmentTypeId: "7", internalReference: "Front row" },
      { equipmentTypeId: "7", internalReference: "Back row" },
    ];
    expect(newEquipmentRows(renamed, chair, 1)[0].internalReference).toBe("Chair 3");
  });

  it("reads a submitted list whatever its shape", () => {
    expect(equipmentRowsOf(undefined)).toEqual([]);
    expect(equipmentRowsOf([{ id: "3", equipmentTypeId: "7", internalReference: "A" }, { equipmentTypeId: "8" }, "x"])).toEqual([
      { id: "3", equipmentTypeId: "7", internalReference: "A" },
      { equipmentTypeId: "8" },
    ]);
  });
});
