import type { Db } from "~/db/client.server";
import { IncidentStatus } from "~/db/enums";
import type { Building, EquipmentItem, Facility, Incident, Room } from "~/db/schema";
import { createEquipmentItem, createEquipmentType } from "~/seed/factories/equipment";
import { createIncident } from "~/seed/factories/incidents";
import { createBuilding, createFacility, createRoom, createRoomType } from "~/seed/factories/places";

/** The four statuses an incident moves through on a board (Archived is extra). */
export const WORKFLOW_STATUSES = [
  IncidentStatus.PENDING,
  IncidentStatus.IN_PROGRESS,
  IncidentStatus.DONE,
  IncidentStatus.REJECTED,
] as const;

export interface FacilityTreeOptions {
  entityId: number;
  /** Build the tree in this facility (default: a new one). */
  facility?: Facility;
  facilityName?: string;
  /** Rooms per building, one entry per building (default `[2, 1]`: two buildings). */
  roomsPerBuilding?: number[];
  /** Equipment items per room (default 1). */
  itemsPerRoom?: number;
  /** One incident per status on every room and every item (default: the four workflow statuses). */
  statuses?: readonly IncidentStatus[];
}

export interface FacilityTree {
  facility: Facility;
  buildings: Building[];
  rooms: (Room & { reportCode: string | null; building: Building })[];
  items: (EquipmentItem & { reportCode: string | null; room: Room })[];
  /** Incidents reported on a room (room_id set, no equipment item). */
  roomIncidents: Incident[];
  /** Incidents reported on an equipment item (equipment_item_id set, room_id null). */
  itemIncidents: Incident[];
}

/**
 * A facility with buildings, rooms and equipment items (each with its report identifier) and one
 * incident per status on every room and every item: the fixture of the archive cascade tests.
 */
export async function createFacilityTree(db: Db, options: FacilityTreeOptions): Promise<FacilityTree> {
  const { entityId, roomsPerBuilding = [2, 1], itemsPerRoom = 1, statuses = WORKFLOW_STATUSES } = options;
  const facility =
    options.facility ??
    (await createFacility(db, { entityId, ...(options.facilityName ? { name: options.facilityName } : {}) }));
  const roomType = await createRoomType(db, { entityId });
  const equipmentType = await createEquipmentType(db, { entityId });
  const tree: FacilityTree = { facility, buildings: [], rooms: [], items: [], roomIncidents: [], itemIncidents: [] };
  for (const roomCount of roomsPerBuilding) {
    const building = await createBuilding(db, { entityId, facilityId: facility.id });
    tree.buildings.push(building);
    for (let r = 0; r < roomCount; r++) {
      const room = await createRoom(db, { entityId, buildingId: building.id, roomTypeId: roomType.id });
      tree.rooms.push({ ...room, building });
      for (const status of statuses) {
        tree.roomIncidents.push(await createIncident(db, { entityId, roomId: room.id, status }));
      }
      for (let i = 0; i < itemsPerRoom; i++) {
        const item = await createEquipmentItem(db, { entityId, roomId: room.id, equipmentTypeId: equipmentType.id });
        tree.items.push({ ...item, room });
        for (const status of statuses) {
          tree.itemIncidents.push(
            await createIncident(db, { entityId, equipmentItemId: item.id, roomId: null, status }),
          );
        }
      }
    }
  }
  return tree;
}
