import { timeEntryRoute } from "~/http/work-api.server";

/** /api/incidents/{id}/time-entries/{entryId}: PATCH and DELETE of one time entry of an incident (app/http/work-api.server.ts `timeEntryRoute`). */
const route = timeEntryRoute("incident");
export const loader = route.loader;
export const action = route.action;
