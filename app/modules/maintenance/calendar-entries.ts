import { TaskStatus } from "~/db/enums";
import { taskPlace } from "./task-place";

/**
 * The calendar's entries: a plan's tasks of one day at one time of day as one entry (a plan on thirty rooms
 * is one line of its day, not thirty), linking to the plan's day (/view-task/{id}/{date}), which lists
 * its locations. Client-safe.
 */
export interface CalendarTaskInput {
  plannedMaintenanceId: number;
  planName: string;
  dueDate: string;
  dueTime: string | null;
  status: number;
  buildingName: string;
  roomName: string;
  equipmentName: string | null;
}

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

/** Groups tasks in calendar order (day, time, plan, ...) into entries, in the same order. */
export function calendarEntries(tasks: readonly CalendarTaskInput[]): CalendarEntry[] {
  const entries: CalendarEntry[] = [];
  const byKey = new Map<string, CalendarEntry>();
  for (const task of tasks) {
    const key = `${task.dueDate}|${task.dueTime ?? ""}|${task.plannedMaintenanceId}`;
    let entry = byKey.get(key);
    if (!entry) {
      entry = {
        plannedMaintenanceId: task.plannedMaintenanceId,
        planName: task.planName,
        dueDate: task.dueDate,
        dueTime: task.dueTime,
        tasks: 0,
        done: 0,
        place: taskPlace(task),
      };
      byKey.set(key, entry);
      entries.push(entry);
    } else {
      entry.place = null;
    }
    entry.tasks++;
    if (task.status === TaskStatus.DONE) entry.done++;
  }
  return entries;
}
