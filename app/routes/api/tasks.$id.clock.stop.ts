import { clockRoute } from "~/http/work-api.server";

/** POST /api/tasks/{id}/clock/stop: stops the caller's clock on a maintenance task and records its time entry (app/http/work-api.server.ts `clockRoute`). */
const route = clockRoute("task", "stop");
export const loader = route.loader;
export const action = route.action;
