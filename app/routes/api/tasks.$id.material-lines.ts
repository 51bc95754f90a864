import { materialLinesRoute } from "~/http/work-api.server";

/** /api/tasks/{id}/material-lines: GET (the record's lines) and POST (adds a line) of the material lines of a maintenance task (app/http/work-api.server.ts `materialLinesRoute`). */
const route = materialLinesRoute("task");
export const loader = route.loader;
export const action = route.action;
