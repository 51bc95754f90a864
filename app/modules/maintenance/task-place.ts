/** Where a task is done: "Building · Room · Equipment" (the list, the calendar, the feed). Client-safe. */
export function taskPlace(task: { buildingName: string; roomName: string; equipmentName: string | null }): string {
  return [task.buildingName, task.roomName, task.equipmentName].filter(Boolean).join(" · ");
}
