import { materialLinesRoute } from "~/http/work-api.server";

/** /api/incidents/{id}/material-lines: GET (the record's lines) and POST (adds a line) of the material lines of an incident (app/http/work-api.server.ts `materialLinesRoute`). */
const route = materialLinesRoute("incident");
export const loader = route.loader;
export const action = route.action;
