/**
 * The incident type form of /add-incident-type and /update-incident-type/{id} (client-safe): the
 * intents its buttons post and the names of its helper fields. Save posts `intent=create` or
 * `intent=update` (IncidentTypeSchema); "Translate to the others" posts `intent=translate`; the
 * searchable checklists (rooms, default assignees) post `intent=<picker>-find|prev|next`. Those
 * helpers answer the form again with the input kept, nothing saved. The checklist's add, remove and
 * move buttons are conform list intents (done in the browser with JavaScript, by the server without).
 */
export const CREATE_INTENT = "create";
export const UPDATE_INTENT = "update";
export const TRANSLATE_INTENT = "translate";

export const INCIDENT_TYPES_LIST = "/configuration?tab=incident-types";

/** The two searchable, paged checklists of the form. */
export const PICKERS = {
  rooms: { search: "roomQ", page: "roomPage" },
  assignees: { search: "assigneeQ", page: "assigneePage" },
} as const;
export type PickerKind = keyof typeof PICKERS;
export const PICKER_MOVES = ["find", "prev", "next"] as const;
export type PickerMove = (typeof PICKER_MOVES)[number];

export const pickerIntent = (kind: PickerKind, move: PickerMove) => `${kind}-${move}`;

/** Fields the helpers' answers do not keep as input. */
export const HELPER_FIELDS = ["intent", PICKERS.rooms.page, PICKERS.assignees.page];

/** How the translation went: shown above the names after "Translate to the others". */
export type TranslateOutcome = "service" | "copy" | "failed";

/** Rows per page of the searchable checklists. */
export const PICKER_PAGE_SIZE = 20;
