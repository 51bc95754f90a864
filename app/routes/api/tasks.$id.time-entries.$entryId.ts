import { timeEntryRoute } from "~/http/work-api.server";

/** /api/tasks/{id}/time-entries/{entryId}: PATCH and DELETE of one time entry of a maintenance task (app/http/work-api.server.ts `timeEntryRoute`). */
const route = timeEntryRoute("task");
export const loader = route.loader;
export const action = route.action;
