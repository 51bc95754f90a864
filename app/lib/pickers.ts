/**
 * The names the building picker (components/forms/building-picker.tsx) posts and reads, shared by the
 * component, its server helper (http/pickers.server.ts) and its resource route. Client-safe.
 */
/** The picker's search field. */
export const BUILDING_SEARCH_FIELD = "buildingQ";
/** The cursor of the next page of matches (keyset), sent by "More buildings" without JavaScript. */
export const BUILDING_AFTER_FIELD = "buildingAfter";
/** The resource route the picker reads its pages from when JavaScript runs. */
export const BUILDING_OPTIONS_URL = "/building-options";
/** The room form's intents of the picker without JavaScript: search, and the next page. */
export const FIND_BUILDING_INTENT = "find-building";
export const MORE_BUILDINGS_INTENT = "more-buildings";

/**
 * The user form's two building checklists (linked buildings, notification buildings) share one form,
 * so each has its own search and cursor names, and its own submit button name without JavaScript
 * (value `find` or `more`).
 */
export const LINK_PICKER = { search: "linkQ", after: "linkAfter", action: "linkAction" } as const;
export const NOTIFY_PICKER = { search: "notifyQ", after: "notifyAfter", action: "notifyAction" } as const;
