import { clockRoute } from "~/http/work-api.server";

/** POST /api/incidents/{id}/clock/start: starts the caller's clock on an incident (app/http/work-api.server.ts `clockRoute`). */
const route = clockRoute("incident", "start");
export const loader = route.loader;
export const action = route.action;
