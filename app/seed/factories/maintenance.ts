import type { Db } from "~/db/client.server";
import { eq } from "drizzle-orm";
import { ObjectType, TimeMeasure, InspectionCheckKind, Priority } from "~/db/enums";
import { entities, maintenanceTypeAssignees, maintenanceTypeEquipmentItems, maintenanceTypeRooms, type MaintenanceType, maintenanceTypes, type NewMaintenanceType, type NewPlannedMaintenance, type NewTask, plannedMaintenanceAssignees, plannedMaintenanceEquipmentItems, plannedMaintenanceLocations, plannedMaintenanceRooms, type PlannedMaintenance, plannedMaintenances, type Task, tasks, type MaintenanceTypeCheck, maintenanceTypeChecks } from "~/db/schema";
import { DEFAULT_TIME_ZONE, dayIn } from "~/lib/dates";
import { type Overrides, sequence } from "./core";

export type CreateMaintenanceTypeOverrides = Overrides<NewMaintenanceType> & {
  assigneeIds?: number[];
  roomIds?: number[];
  equipmentItemIds?: number[];
};

/** A maintenance type, monthly unless overridden. */
export async function createMaintenanceType(
  db: Db,
  overrides: CreateMaintenanceTypeOverrides,
): Promise<MaintenanceType> {
  const { assigneeIds = [], roomIds = [], equipmentItemIds = [], ...columns } = overrides;
  const { entityId } = columns;
  const [row] = await db
    .insert(maintenanceTypes)
    .values({
      name: `Maintenance type ${sequence()}`,
      occurrenceInterval: 1,
      occurrenceUnit: TimeMeasure.MONTH,
      ...columns,
    })
    .returning();
  const maintenanceTypeId = row.id;
  if (assigneeIds.length > 0) {
    await db
      .insert(maintenanceTypeAssignees)
      .values(assigneeIds.map((userId) => ({ entityId, maintenanceTypeId, userId })));
  }
  if (roomIds.length > 0) {
    await db.insert(maintenanceTypeRooms).values(roomIds.map((roomId) => ({ entityId, maintenanceTypeId, roomId })));
  }
  if (equipmentItemIds.length > 0) {
    await db
      .insert(maintenanceTypeEquipmentItems)
      .values(equipmentItemIds.map((equipmentItemId) => ({ entityId, maintenanceTypeId, equipmentItemId })));
  }
  return row;
}

export interface LocationInput {
  objectType: ObjectType;
  facilityId?: number;
  buildingId?: number;
  roomId?: number;
}

export type CreatePlannedMaintenanceOverrides = Overrides<NewPlannedMaintenance> & {
  assigneeIds?: number[];
  roomIds?: number[];
  equipmentItemIds?: number[];
  /** The location-tree selection (default: the whole entity). */
  locations?: LocationInput[];
};

/** `YYYY-MM-DD` of a date, in UTC. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * A planned maintenance from today for a year, with the occurrence of its maintenance type (created
 * for it when `maintenanceTypeId` is missing). Generates no tasks: use `createTask`.
 */
export async function createPlannedMaintenance(
  db: Db,
  overrides: CreatePlannedMaintenanceOverrides,
): Promise<PlannedMaintenance> {
  const { assigneeIds = [], roomIds = [], equipmentItemIds = [], locations, ...columns } = overrides;
  const { entityId } = columns;
  const type =
    columns.maintenanceTypeId === undefined ? await createMaintenanceType(db, { entityId }) : undefined;
  const today = new Date();
  const inAYear = new Date(today.getTime());
  inAYear.setUTCFullYear(inAYear.getUTCFullYear() + 1);
  const [row] = await db
    .insert(plannedMaintenances)
    .values({
      name: `Planned maintenance ${sequence()}`,
      startDate: isoDate(today),
      endDate: isoDate(inAYear),
      occurrenceInterval: type?.occurrenceInterval ?? 1,
      occurrenceUnit: type?.occurrenceUnit ?? TimeMeasure.MONTH,
      ...columns,
      maintenanceTypeId: columns.maintenanceTypeId ?? type!.id,
    })
    .returning();
  const plannedMaintenanceId = row.id;
  if (assigneeIds.length > 0) {
    await db
      .insert(plannedMaintenanceAssignees)
      .values(assigneeIds.map((userId) => ({ entityId, plannedMaintenanceId, userId })));
  }
  if (roomIds.length > 0) {
    await db
      .insert(plannedMaintenanceRooms)
      .values(roomIds.map((roomId) => ({ entityId, plannedMaintenanceId, roomId })));
  }
  if (equipmentItemIds.length > 0) {
    await db
      .insert(plannedMaintenanceEquipmentItems)
      .values(equipmentItemIds.map((equipmentItemId) => ({ entityId, plannedMaintenanceId, equipmentItemId })));
  }
  const selection = locations ?? [{ objectType: ObjectType.ENTITY }];
  if (selection.length > 0) {
    await db.insert(plannedMaintenanceLocations).values(
      selection.map((location) => ({
        entityId,
        plannedMaintenanceId,
        objectType: location.objectType,
        facilityId: location.facilityId ?? null,
        buildingId: location.buildingId ?? null,
        roomId: location.roomId ?? null,
      })),
    );
  }
  return row;
}

/**
 * A maintenance task (pending, due today unless overridden). "Today" is the day in the entity's time
 * zone, as the calendar and the API read it, so a task made just before midnight UTC is not yesterday's.
 */
export async function createTask(
  db: Db,
  overrides: Overrides<NewTask> & Pick<NewTask, "plannedMaintenanceId" | "roomId">,
): Promise<Task> {
  const [entity] = await db.select({ timeZone: entities.timeZone }).from(entities).where(eq(entities.id, overrides.entityId));
  const dueDate = overrides.dueDate ?? dayIn(new Date(), entity?.timeZone ?? DEFAULT_TIME_ZONE);
  const [row] = await db
    .insert(tasks)
    .values({ ...overrides, dueDate })
    .returning();
  return row;
}

/** A check of a maintenance type's inspection checklist (pass/fail, medium priority, at the end unless overridden). */
export async function createMaintenanceCheck(
  db: Db,
  overrides: Overrides<typeof maintenanceTypeChecks.$inferInsert> & Pick<typeof maintenanceTypeChecks.$inferInsert, "maintenanceTypeId">,
): Promise<MaintenanceTypeCheck> {
  const [row] = await db
    .insert(maintenanceTypeChecks)
    .values({ kind: InspectionCheckKind.PASS_FAIL, priority: Priority.MEDIUM, label: `Check ${sequence()}`, ...overrides })
    .returning();
  return row;
}
