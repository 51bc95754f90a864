import { timeEntriesRoute } from "~/http/work-api.server";

/** /api/incidents/{id}/time-entries: GET (the record's entries) and POST (records time) of the time entries of an incident (app/http/work-api.server.ts `timeEntriesRoute`). */
const route = timeEntriesRoute("incident");
export const loader = route.loader;
export const action = route.action;
