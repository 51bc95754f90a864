/**
 * Every route of the app with who may reach it, in one place: the screens of SPEC.md section 2, the
 * resource routes and the REST API. `app/routes.ts` builds the route table from these lists, and the
 * access gate (app/http/gate.server.ts) decides every request from the id of the route Remix matched,
 * whatever the spelling of the path; a route id missing here is refused (deny by default).
 *
 * - `visitor`: only for signed-out visitors (a signed-in user opening /login is sent home);
 * - `public`:  anyone (forbidden page, not-found page, translations);
 * - `user`:    any signed-in user, technicians included;
 * - `manager`: facility managers and administrators only (SPEC.md section 6): the permission table's
 *              `open managerScreen`;
 * - `admin`:   administrators only (decision 057): the permission table's `open adminScreen`;
 * - `api`:     the REST API: the route authenticates its bearer token itself (apiRoute), or is one of
 *              the calls SPEC.md section 7 sends without one (login, refresh, password reset).
 */
export type Access = "visitor" | "public" | "user" | "manager" | "admin" | "api";

export interface Screen {
  /** Stable route id. */
  id: string;
  /** Path as Remix writes it (":id" for a parameter); "" is the home page. */
  path: string;
  /** Route module, relative to app/. */
  file: string;
  access: Access;
}

export const screens: Screen[] = [
  // Public
  { id: "login", path: "login", file: "routes/login.tsx", access: "visitor" },
  { id: "signup", path: "signup", file: "routes/signup.tsx", access: "visitor" },
  { id: "password-reset", path: "password/reset", file: "routes/password-reset.tsx", access: "visitor" },
  // Steps of the public flows above (not in SPEC.md's list, which names only their entry points)
  { id: "signup-success", path: "signup/success", file: "routes/signup-success.tsx", access: "visitor" },
  { id: "signup-verify", path: "signup/verify", file: "routes/signup-verify.tsx", access: "public" },
  { id: "forbidden", path: "forbidden", file: "routes/forbidden.tsx", access: "public" },
  // The occupier's pages: a sticker's QR code opens the first; the reporter's mails link to the second.
  { id: "report", path: "report/:identifier", file: "routes/report.tsx", access: "public" },
  { id: "report-status", path: "report/status/:token", file: "routes/report-status.tsx", access: "public" },

  // Any signed-in user
  { id: "home", path: "", file: "routes/home.tsx", access: "user" },
  { id: "settings", path: "settings", file: "routes/settings.tsx", access: "user" },
  { id: "notifications", path: "notifications", file: "routes/notifications.tsx", access: "user" },
  { id: "notification", path: "notification/:id", file: "routes/notification.tsx", access: "user" },
  { id: "view-room", path: "view-room/:id", file: "routes/view-room.tsx", access: "user" },
  // An equipment item's history (issue 62): readable wherever its room is (reach decides, as for the room view).
  { id: "view-equipment", path: "view-equipment/:id", file: "routes/view-equipment.tsx", access: "user" },
  { id: "view-facility", path: "view-facility/:id", file: "routes/view-facility.tsx", access: "user" },
  { id: "view-building", path: "view-building/:id", file: "routes/view-building.tsx", access: "user" },
  { id: "task", path: "task", file: "routes/task.tsx", access: "user" },
  { id: "view-task", path: "view-task/:id/:date", file: "routes/view-task.tsx", access: "user" },
  { id: "incidents", path: "incidents", file: "routes/incidents.tsx", access: "user" },
  { id: "incident", path: "incident/:id", file: "routes/incident.tsx", access: "user" },
  { id: "tutorial", path: "tutorial", file: "routes/tutorial.tsx", access: "user" },
  { id: "offline", path: "offline", file: "routes/offline.tsx", access: "user" },
  // A sticker's QR code scanned with the camera, or its code typed, opens the staff page of its room or item (issue 64).
  { id: "scan", path: "scan", file: "routes/scan.tsx", access: "user" },

  // Facility managers and administrators
  { id: "administration", path: "administration", file: "routes/administration.tsx", access: "manager" },
  // The pages of the administration hub (issue 50): API tokens, webhooks, the audit history.
  // Webhooks and the audit history are administrators' only (decision 057): the gate refuses anyone else,
  // and so do their verbs and reads.
  { id: "administration-webhooks", path: "administration/webhooks", file: "routes/administration.webhooks.tsx", access: "admin" },
  { id: "administration-webhook", path: "administration/webhooks/:id", file: "routes/administration.webhooks.$id.tsx", access: "admin" },
  { id: "administration-audit", path: "administration/audit", file: "routes/administration.audit.tsx", access: "admin" },
  // Service levels (issue 62, decision 064): administrators only, like their verbs and reads.
  { id: "administration-service-levels", path: "administration/service-levels", file: "routes/administration.service-levels.tsx", access: "admin" },
  { id: "administration-rates", path: "administration/rates", file: "routes/administration.rates.tsx", access: "admin" },
  // An incident type's own targets (its override of the entity's), a page of the service levels.
  { id: "administration-service-level-type", path: "administration/service-levels/incident-types/:id", file: "routes/administration.service-levels.incident-types.$id.tsx", access: "admin" },
  { id: "administration-api-tokens", path: "administration/api-tokens", file: "routes/administration.api-tokens.tsx", access: "manager" },
  { id: "configuration", path: "configuration", file: "routes/configuration.tsx", access: "manager" },
  { id: "dashboard", path: "dashboard", file: "routes/dashboard.tsx", access: "manager" },
  { id: "users", path: "users", file: "routes/users.tsx", access: "manager" },
  { id: "add-user", path: "add-user", file: "routes/add-user.tsx", access: "manager" },
  { id: "update-user", path: "update-user/:id", file: "routes/update-user.tsx", access: "manager" },
  { id: "import-data", path: "import-data", file: "routes/import-data.tsx", access: "manager" },
  // The export tab of /import-data (its import tab is /import-data itself).
  { id: "import-data-export", path: "import-data/export", file: "routes/import-data.export.tsx", access: "manager" },
  { id: "facilities", path: "facilities", file: "routes/facilities.tsx", access: "manager" },
  { id: "add-facility", path: "add-facility", file: "routes/add-facility.tsx", access: "manager" },
  { id: "update-facility", path: "update-facility/:id", file: "routes/update-facility.tsx", access: "manager" },
  { id: "add-building", path: "add-building", file: "routes/add-building.tsx", access: "manager" },
  { id: "update-building", path: "update-building/:id", file: "routes/update-building.tsx", access: "manager" },
  { id: "add-room-type", path: "add-room-type", file: "routes/add-room-type.tsx", access: "manager" },
  { id: "update-room-type", path: "update-room-type/:id", file: "routes/update-room-type.tsx", access: "manager" },
  { id: "add-room", path: "add-room", file: "routes/add-room.tsx", access: "manager" },
  { id: "update-room", path: "update-room/:id", file: "routes/update-room.tsx", access: "manager" },
  { id: "room-type", path: "room-type", file: "routes/room-type.tsx", access: "manager" },
  { id: "equipments", path: "equipments", file: "routes/equipments.tsx", access: "manager" },
  { id: "add-generic-equipment", path: "add-generic-equipment", file: "routes/add-generic-equipment.tsx", access: "manager" },
  { id: "update-equipment-type", path: "update-equipment-type/:id", file: "routes/update-equipment-type.tsx", access: "manager" },
  { id: "update-category", path: "update-category/:id", file: "routes/update-category.tsx", access: "manager" },
  { id: "add-equipment-category", path: "add-equipment-category", file: "routes/add-equipment-category.tsx", access: "manager" },
  { id: "maintenances", path: "maintenances", file: "routes/maintenances.tsx", access: "manager" },
  { id: "add-maintenance-type", path: "add-maintenance-type", file: "routes/add-maintenance-type.tsx", access: "manager" },
  { id: "update-maintenance-type", path: "update-maintenance-type/:id", file: "routes/update-maintenance-type.tsx", access: "manager" },
  { id: "add-planned-maintenance", path: "add-planned-maintenance", file: "routes/add-planned-maintenance.tsx", access: "manager" },
  { id: "update-planned-maintenance", path: "update-planned-maintenance/:id", file: "routes/update-planned-maintenance.tsx", access: "manager" },
  { id: "printing", path: "printing", file: "routes/printing.tsx", access: "manager" },
  { id: "add-incident-type", path: "add-incident-type", file: "routes/add-incident-type.tsx", access: "manager" },
  { id: "update-incident-type", path: "update-incident-type/:id", file: "routes/update-incident-type.tsx", access: "manager" },
];

/** Routes that are not screens: the layouts, resource routes and the REST API (`path` under /api for the API). */
export const resources: Screen[] = [
  { id: "root", path: "", file: "root.tsx", access: "public" },
  { id: "app", path: "", file: "routes/app-layout.tsx", access: "user" },
  { id: "not-found", path: "*", file: "routes/not-found.tsx", access: "public" },
  { id: "locales", path: "locales/:lng.json", file: "routes/resources/locales.ts", access: "public" },
  { id: "set-language", path: "set-language", file: "routes/resources/set-language.ts", access: "public" },
  { id: "logout", path: "logout", file: "routes/resources/logout.ts", access: "public" },
  { id: "file", path: "files/:id", file: "routes/resources/files.ts", access: "user" },
  { id: "altcha-challenge", path: "altcha/challenge", file: "routes/resources/altcha-challenge.ts", access: "public" },
  { id: "report-issue", path: "report-issue", file: "routes/resources/report-issue.tsx", access: "user" },
  { id: "cookie-consent", path: "cookie-consent", file: "routes/resources/cookie-consent.ts", access: "public" },
  // The service worker's list of pages to keep, and the installable app's manifest (issue 64).
  { id: "offline-pages", path: "offline/pages", file: "routes/resources/offline.pages.ts", access: "user" },
  { id: "web-manifest", path: "manifest.webmanifest", file: "routes/resources/manifest.ts", access: "public" },
  // The entity logo of the public report page (no account: /files/{id} is for signed-in users).
  { id: "report-logo", path: "report/:identifier/logo", file: "routes/resources/report.$identifier.logo.ts", access: "public" },
  // The building picker's pages (searchable, keyset-paged), read by the picker when JavaScript runs.
  { id: "building-options", path: "building-options", file: "routes/resources/building-options.ts", access: "user" },
  // The printed work order of an incident (PDF, pdfkit), and the assign dialog's user picker pages.
  { id: "incident-work-order", path: "incident/:id/work-order.pdf", file: "routes/resources/incident.$id.work-order[.pdf].ts", access: "user" },
  { id: "incident-assignee-options", path: "incident/:id/assignee-options", file: "routes/resources/incident.$id.assignee-options.ts", access: "user" },
  // The printed inspection report of a plan's day (one task of it, or the plan over a period; PDF, pdfkit).
  { id: "task-inspection-report", path: "view-task/:id/:date/inspection.pdf", file: "routes/resources/view-task.$id.$date.inspection[.pdf].ts", access: "user" },
  // The live notifications of the signed-in user (server-sent events, decision 028). Signed-in only, but
  // "api" for the gate: it accepts the session cookie or the API's bearer token, so it authenticates
  // itself and answers 401 (never a redirect to the login page, which a streaming client cannot use).
  { id: "notifications-stream", path: "resources/notifications/stream", file: "routes/resources/notifications.stream.ts", access: "api" },
  // The dashboard's figures as CSV, for the same roles.
  { id: "dashboard-csv", path: "dashboard.csv", file: "routes/resources/dashboard[.csv].ts", access: "manager" },
  // The sticker sheets of /printing as PDF downloads (posted by its forms; decision 053).
  { id: "printing-qr-codes", path: "printing/qr-codes.pdf", file: "routes/resources/printing.qr-codes[.pdf].ts", access: "manager" },
  { id: "printing-explanatory-stickers", path: "printing/explanatory-stickers.pdf", file: "routes/resources/printing.explanatory-stickers[.pdf].ts", access: "manager" },
  // A person's maintenance tasks as an iCalendar feed (decision 051): calendar applications cannot sign
  // in, so the address's secret (`calendar/<token>.ics`) is the credential; a wrong one is 404.
  { id: "calendar-feed", path: "calendar/:file", file: "routes/resources/calendar.$file.ts", access: "public" },
  // An import type's template (decision 054): /import-template/rooms.xlsx or rooms.csv.
  { id: "import-template", path: "import-template/:file", file: "routes/resources/import-template.$file.ts", access: "manager" },
];

const api = (id: string, path: string, file: string): Screen => ({ id, path, file: `routes/api/${file}`, access: "api" });

/** The REST API of SPEC.md section 7, under /api. */
export const apiRoutes: Screen[] = [
  api("api-login", "authentication/login", "authentication.login.ts"),
  api("api-refresh-token", "authentication/refresh-token", "authentication.refresh-token.ts"),
  api("api-logout", "authentication/logout", "authentication.logout.ts"),
  api("api-entity", "entities/:id", "entities.$id.ts"),
  api("api-entity-sticker", "entities/:id/explanatory-sticker", "entities.$id.explanatory-sticker.ts"),
  // The entity's currency and hourly rates (issue 62, decision 065; administrators only)
  api("api-entity-hourly-rates", "entities/:id/hourly-rates", "entities.$id.hourly-rates.ts"),
  api("api-users-password", "users/password", "users.password.ts"),
  api("api-users-password-reset", "users/password/reset", "users.password.reset.ts"),
  api("api-user-password", "users/:id/password", "users.$id.password.ts"),
  api("api-users", "users", "users.ts"),
  api("api-users-assignees", "users/assignees", "users.assignees.ts"),
  api("api-user", "users/:id", "users.$id.ts"),
  api("api-user-status", "users/:id/status", "users.$id.status.ts"),
  api("api-user-notifications", "users/:id/notifications", "users.$id.notifications.ts"),
  api("api-user-notifications-count", "users/:id/notifications/count", "users.$id.notifications.count.ts"),
  api("api-user-notifications-read", "users/:id/notifications/read", "users.$id.notifications.read.ts"),
  api("api-user-invitation", "users/:id/invitation", "users.$id.invitation.ts"),
  // One's own running clock (start and stop, issue 62)
  api("api-user-clock", "users/:id/clock", "users.$id.clock.ts"),
  api("api-facilities", "facilities", "facilities.ts"),
  api("api-facility", "facilities/:id", "facilities.$id.ts"),
  api("api-buildings", "facilities/buildings", "facilities.buildings.ts"),
  api("api-building", "facilities/buildings/:id", "facilities.buildings.$id.ts"),
  api("api-rooms", "facilities/rooms", "facilities.rooms.ts"),
  api("api-room", "facilities/rooms/:id", "facilities.rooms.$id.ts"),
  api("api-room-types", "facilities/rooms/roomtype", "facilities.rooms.roomtype.ts"),
  api("api-room-type", "facilities/rooms/roomtype/:id", "facilities.rooms.roomtype.$id.ts"),
  api("api-equipment-items", "equipments", "equipments.ts"),
  api("api-equipment-item", "equipments/:id", "equipments.$id.ts"),
  api("api-equipment-item-children", "equipments/:id/children", "equipments.$id.children.ts"),
  api("api-equipment-types", "equipments/type", "equipments.type.ts"),
  api("api-equipment-type", "equipments/type/:id", "equipments.type.$id.ts"),
  api("api-equipment-type-tags", "equipments/type/:id/tags", "equipments.type.$id.tags.ts"),
  api("api-equipment-type-tag", "equipments/type/:id/tags/:tag", "equipments.type.$id.tags.$tag.ts"),
  api("api-equipment-categories", "equipments/category", "equipments.category.ts"),
  api("api-equipment-category", "equipments/category/:id", "equipments.category.$id.ts"),
  api("api-incident-types", "incident-types", "incident-types.ts"),
  api("api-incident-types-translate", "incident-types/translate", "incident-types.translate.ts"),
  api("api-incident-types-reportable", "incident-types/reportable", "incident-types.reportable.ts"),
  api("api-incident-type", "incident-types/:id", "incident-types.$id.ts"),
  // Incidents (section 7 leaves them out; designed like the facility calls)
  api("api-incidents", "incidents", "incidents.ts"),
  // The dashboard's figures
  api("api-dashboard", "dashboard", "dashboard.ts"),
  api("api-incidents-bulk", "incidents/bulk", "incidents.bulk.ts"),
  api("api-incident", "incidents/:id", "incidents.$id.ts"),
  api("api-incident-status", "incidents/:id/status", "incidents.$id.status.ts"),
  api("api-incident-priority", "incidents/:id/priority", "incidents.$id.priority.ts"),
  api("api-incident-assignee", "incidents/:id/assignee", "incidents.$id.assignee.ts"),
  api("api-incident-assignees", "incidents/:id/assignees", "incidents.$id.assignees.ts"),
  api("api-incident-tags", "incidents/:id/tags", "incidents.$id.tags.ts"),
  api("api-incident-tag", "incidents/:id/tags/:tag", "incidents.$id.tags.$tag.ts"),
  api("api-incident-duplicate", "incidents/:id/duplicate", "incidents.$id.duplicate.ts"),
  api("api-incident-comments", "incidents/:id/comments", "incidents.$id.comments.ts"),
  api("api-incident-comment", "incidents/:id/comments/:commentId", "incidents.$id.comments.$commentId.ts"),
  api("api-incident-events", "incidents/:id/events", "incidents.$id.events.ts"),
  api("api-incident-files", "incidents/:id/files", "incidents.$id.files.ts"),
  api("api-incident-file", "incidents/:id/files/:fileId", "incidents.$id.files.$fileId.ts"),
  api("api-incident-work-order", "incidents/:id/work-order", "incidents.$id.work-order.ts"),
  // The equipment's downtime of an incident (issue 62, decision 066)
  api("api-incident-downtime", "incidents/:id/downtime", "incidents.$id.downtime.ts"),
  // Time and material recorded on an incident (issue 62, decision 065)
  api("api-incident-time-entries", "incidents/:id/time-entries", "incidents.$id.time-entries.ts"),
  api("api-incident-time-entry", "incidents/:id/time-entries/:entryId", "incidents.$id.time-entries.$entryId.ts"),
  api("api-incident-material-lines", "incidents/:id/material-lines", "incidents.$id.material-lines.ts"),
  api("api-incident-material-line", "incidents/:id/material-lines/:lineId", "incidents.$id.material-lines.$lineId.ts"),
  api("api-incident-clock-start", "incidents/:id/clock/start", "incidents.$id.clock.start.ts"),
  api("api-incident-clock-stop", "incidents/:id/clock/stop", "incidents.$id.clock.stop.ts"),
  // Maintenance tasks (section 7 leaves them out; designed like the incident calls)
  api("api-tasks", "tasks", "tasks.ts"),
  api("api-task-status", "tasks/:id/status", "tasks.$id.status.ts"),
  // Time and material recorded on a task (issue 62, decision 065): the incident calls' handlers
  api("api-task-time-entries", "tasks/:id/time-entries", "tasks.$id.time-entries.ts"),
  api("api-task-time-entry", "tasks/:id/time-entries/:entryId", "tasks.$id.time-entries.$entryId.ts"),
  api("api-task-material-lines", "tasks/:id/material-lines", "tasks.$id.material-lines.ts"),
  api("api-task-material-line", "tasks/:id/material-lines/:lineId", "tasks.$id.material-lines.$lineId.ts"),
  api("api-task-clock-start", "tasks/:id/clock/start", "tasks.$id.clock.start.ts"),
  api("api-task-clock-stop", "tasks/:id/clock/stop", "tasks.$id.clock.stop.ts"),
  // Maintenance types and planned maintenance (section 7 leaves them out; designed like the facility calls)
  api("api-maintenance-types", "maintenances/types", "maintenances.types.ts"),
  api("api-maintenance-type", "maintenances/types/:id", "maintenances.types.$id.ts"),
  api("api-maintenance-type-checklist", "maintenances/types/:id/checklist", "maintenances.types.$id.checklist.ts"),
  api("api-planned-maintenances", "maintenances/planned", "maintenances.planned.ts"),
  api("api-planned-maintenance", "maintenances/planned/:id", "maintenances.planned.$id.ts"),
  // Printing (section 7 leaves it out): sticker sheet PDFs and the print status (decision 053)
  api("api-printing-qr-codes", "printing/qr-codes", "printing.qr-codes.ts"),
  api("api-printing-explanatory-stickers", "printing/explanatory-stickers", "printing.explanatory-stickers.ts"),
  api("api-printing-status", "printing/status", "printing.status.ts"),
  // Exports (section 7 leaves them out; issue 49, decision 055)
  api("api-exports", "exports", "exports.ts"),
  api("api-export", "exports/:id", "exports.$id.ts"),
  api("api-export-file", "exports/:id/file", "exports.$id.file.ts"),
  // Bulk imports (section 7 leaves them out; decision 054)
  api("api-imports", "imports", "imports.ts"),
  api("api-import", "imports/:id", "imports.$id.ts"),
  // The API's own contract (decision 056): the OpenAPI document and its reference page, both public.
  api("api-openapi", "openapi.json", "openapi[.json].ts"),
  api("api-docs", "docs", "docs.ts"),
  // Last: any other address under /api is a JSON 404.
  api("api-not-found", "*", "not-found.ts"),
];

export const screensById = new Map(screens.map((s) => [s.id, s]));

/** Every route by id: what the access gate reads. */
export const routesById = new Map([...screens, ...resources, ...apiRoutes].map((s) => [s.id, s]));
