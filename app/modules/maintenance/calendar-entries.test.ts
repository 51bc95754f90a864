import { describe, expect, it } from "vitest";
import { calendarEntries, type CalendarTaskInput } from "./calendar-entries";

const task = (over: Partial<CalendarTaskInput>): CalendarTaskInput => ({
  plannedMaintenanceId: 1,
  planName: "Filters",
  dueDate: "2026-12-01",
  dueTime: "08:00:00",
  status: 0,
  buildingName: "Main",
  roomName: "Hall",
  equipmentName: null,
  ...over,
});

describe("calendar entries", () => {
  it("makes a plan's tasks of one day and time one entry, counting the done ones, in the tasks' order", () => {
    const entries = calendarEntries([
      task({ roomName: "Hall" }),
      task({ roomName: "Kitchen", status: 1 }),
      task({ roomName: "Office", equipmentName: "Boiler B-1" }),
      task({ plannedMaintenanceId: 2, planName: "Fire check", roomName: "Lab", status: 1 }),
      task({ dueTime: "14:00:00", roomName: "Hall" }),
      task({ dueDate: "2026-12-02", roomName: "Hall" }),
    ]);
    expect(entries).toEqual([
      { plannedMaintenanceId: 1, planName: "Filters", dueDate: "2026-12-01", dueTime: "08:00:00", tasks: 3, done: 1, place: null },
      { plannedMaintenanceId: 2, planName: "Fire check", dueDate: "2026-12-01", dueTime: "08:00:00", tasks: 1, done: 1, place: "Main · Lab" },
      { plannedMaintenanceId: 1, planName: "Filters", dueDate: "2026-12-01", dueTime: "14:00:00", tasks: 1, done: 0, place: "Main · Hall" },
      { plannedMaintenanceId: 1, planName: "Filters", dueDate: "2026-12-02", dueTime: "08:00:00", tasks: 1, done: 0, place: "Main · Hall" },
    ]);
  });

  it("names the place of a single task with its equipment, and has no entry without tasks", () => {
    expect(calendarEntries([task({ dueTime: null, equipmentName: "Boiler B-1" })])).toEqual([
      { plannedMaintenanceId: 1, planName: "Filters", dueDate: "2026-12-01", dueTime: null, tasks: 1, done: 0, place: "Main · Hall · Boiler B-1" },
    ]);
    expect(calendarEntries([])).toEqual([]);
  });
});
