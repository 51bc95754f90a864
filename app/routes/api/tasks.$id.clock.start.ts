import { clockRoute } from "~/http/work-api.server";

/** POST /api/tasks/{id}/clock/start: starts the caller's clock on a maintenance task (app/http/work-api.server.ts `clockRoute`). */
const route = clockRoute("task", "start");
export const loader = route.loader;
export const action = route.action;
