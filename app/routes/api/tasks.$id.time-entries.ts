import { timeEntriesRoute } from "~/http/work-api.server";

/** /api/tasks/{id}/time-entries: GET (the record's entries) and POST (records time) of the time entries of a maintenance task (app/http/work-api.server.ts `timeEntriesRoute`). */
const route = timeEntriesRoute("task");
export const loader = route.loader;
export const action = route.action;
