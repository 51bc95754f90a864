import { ROOM_LINK_TYPE_VALUES, type RoomLinkType } from "~/db/enums";

/**
 * The ten kinds of room link of SPEC.md section 1, in their stored order (RoomLinkType 0..9), with
 * their label keys in the rooms namespace (`rooms:linkTypes.<value>`). Client-safe.
 */
export const ROOM_LINK_TYPES: readonly RoomLinkType[] = ROOM_LINK_TYPE_VALUES;

export function linkTypeLabelKey(type: number): string {
  return `linkTypes.${type}`;
}
