import { taskPlace } from "./task-place";

/**
 * The calendar's entries: a plan's tasks of one day at one time of day as one entry (a plan on thirty rooms
 * is one line of its day, not thirty), linking to the plan's day (/view-task/{id}/{date}), which lists
 * its locations. The entries are counted in the database (`calendarDays`). Client-safe.
 */
export interface CalendarEntry {
  plannedMaintenanceId: number;
  planName: string;
  dueDate: string;
  dueTime: string | null;
  /** The entry's tasks, and how many of them are done. */
  tasks: number;
  done: number;
  /** "Building · Room · Equipment" when the entry is one task; null for several. */
  place: string | null;
}

/** An entry as `calendarDays` reads it: the place's names come with an entry of one task only. */
export type CalendarEntryInput = Omit<CalendarEntry, "place"> & {
  buildingName: string | null;
  roomName: string | null;
  equipmentName: string | null;
};

export function calendarEntry(row: CalendarEntryInput): CalendarEntry {
  const { buildingName, roomName, equipmentName, ...entry } = row;
  const place = entry.tasks === 1 && buildingName !== null && roomName !== null ? taskPlace({ buildingName, roomName, equipmentName }) : null;
  return { ...entry, place };
}
