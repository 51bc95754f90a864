/**
 * The quantity dialog ("quantity to add", SPEC.md sections 2 and 5): adding `quantity` items of one
 * generic equipment appends that many rows to the room's equipment list, each with a default internal
 * reference "<name> <n>", n continuing the numbering of that generic equipment in the list. Shared by
 * the browser (JavaScript on) and the form action (JavaScript off). Client-safe, pure.
 */
export interface EquipmentRowValue {
  id?: string;
  equipmentTypeId: string;
  internalReference?: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The rows of a submitted `equipments` list (conform payload: strings, maybe missing). */
export function equipmentRowsOf(value: unknown): EquipmentRowValue[] {
  const list = Array.isArray(value) ? value : value && typeof value === "object" ? [value] : [];
  return list.flatMap((row): EquipmentRowValue[] => {
    if (!row || typeof row !== "object") return [];
    const r = row as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);
    const out: EquipmentRowValue = { equipmentTypeId: text(r.equipmentTypeId) ?? "" };
    const id = text(r.id);
    if (id) out.id = id;
    const reference = text(r.internalReference);
    if (reference !== undefined) out.internalReference = reference;
    return [out];
  });
}

/** The `quantity` new rows for generic equipment `type`, numbered after those already in `current`. */
export function newEquipmentRows(
  current: EquipmentRowValue[],
  type: { id: number; name: string },
  quantity: number,
): EquipmentRowValue[] {
  const typeId = String(type.id);
  const same = current.filter((row) => row.equipmentTypeId === typeId);
  const pattern = new RegExp(`^${escapeRegExp(type.name.trim())}\\s+(\\d{1,6})$`, "i");
  const highest = same.reduce((max, row) => {
    const match = pattern.exec((row.internalReference ?? "").trim());
    return match ? Math.max(max, Number(match[1])) : max;
  }, 0);
  const start = Math.max(highest, same.length);
  return Array.from({ length: quantity }, (_, i) => ({
    equipmentTypeId: typeId,
    internalReference: `${type.name.trim()} ${start + i + 1}`,
  }));
}
