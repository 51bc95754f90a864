import { materialLineRoute } from "~/http/work-api.server";

/** /api/incidents/{id}/material-lines/{lineId}: PATCH and DELETE of one material line of an incident (app/http/work-api.server.ts `materialLineRoute`). */
const route = materialLineRoute("incident");
export const loader = route.loader;
export const action = route.action;
