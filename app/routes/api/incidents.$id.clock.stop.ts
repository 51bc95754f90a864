import { clockRoute } from "~/http/work-api.server";

/** POST /api/incidents/{id}/clock/stop: stops the caller's clock on an incident and records its time entry (app/http/work-api.server.ts `clockRoute`). */
const route = clockRoute("incident", "stop");
export const loader = route.loader;
export const action = route.action;
