import type { Db } from "~/db/client.server";
import { newReportCode } from "~/db/report-identifier";
import { type EquipmentCategory, equipmentCategories, type EquipmentItem, equipmentItems, type EquipmentType, equipmentTypes, type NewEquipmentCategory, type NewEquipmentItem, type NewEquipmentType } from "~/db/schema";
import { type Overrides, sequence } from "./core";
import { createReportIdentifier, createRoom } from "./places";

export async function createEquipmentCategory(
  db: Db,
  overrides: Overrides<NewEquipmentCategory>,
): Promise<EquipmentCategory> {
  const [row] = await db
    .insert(equipmentCategories)
    .values({ name: `Category ${sequence()}`, ...overrides })
    .returning();
  return row;
}

/** A generic equipment; without `categoryId` a category of the same entity is created for it. */
export async function createEquipmentType(db: Db, overrides: Overrides<NewEquipmentType>): Promise<EquipmentType> {
  const categoryId =
    overrides.categoryId ?? (await createEquipmentCategory(db, { entityId: overrides.entityId })).id;
  const [row] = await db
    .insert(equipmentTypes)
    .values({ name: `Equipment ${sequence()}`, ...overrides, categoryId })
    .returning();
  return row;
}

export type CreateEquipmentItemOverrides = Overrides<NewEquipmentItem> & {
  /** The item's QR code (default: a new random code); `null` creates no report identifier. */
  reportCode?: string | null;
};

/**
 * A specific equipment placed in a room, with its report identifier. Without `roomId` /
 * `equipmentTypeId` a room / generic equipment of the same entity is created for it.
 */
export async function createEquipmentItem(
  db: Db,
  overrides: CreateEquipmentItemOverrides,
): Promise<EquipmentItem & { reportCode: string | null }> {
  const { reportCode, ...columns } = overrides;
  const { entityId } = columns;
  const roomId = columns.roomId ?? (await createRoom(db, { entityId })).id;
  const equipmentTypeId = columns.equipmentTypeId ?? (await createEquipmentType(db, { entityId })).id;
  const [row] = await db
    .insert(equipmentItems)
    .values({ internalReference: `EQ-${String(sequence()).padStart(3, "0")}`, ...columns, roomId, equipmentTypeId })
    .returning();
  let code: string | null = null;
  if (reportCode !== null) {
    const identifier = await createReportIdentifier(db, {
      entityId,
      equipmentItemId: row.id,
      code: reportCode ?? newReportCode(),
    });
    code = identifier.code;
  }
  return { ...row, reportCode: code };
}
