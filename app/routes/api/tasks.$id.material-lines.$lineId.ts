import { materialLineRoute } from "~/http/work-api.server";

/** /api/tasks/{id}/material-lines/{lineId}: PATCH and DELETE of one material line of a maintenance task (app/http/work-api.server.ts `materialLineRoute`). */
const route = materialLineRoute("task");
export const loader = route.loader;
export const action = route.action;
