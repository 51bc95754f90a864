/**
 * The maintenance forms (client-safe): where they go back to and the fields of the location tree
 * picker. The picker's buttons (search, a building's rooms, pages) post the form with `locBrowse`
 * and no `intent`: the server answers the form again with the user's input kept, nothing saved.
 */
export const PLANS_LIST = "/maintenances";
export const TYPES_LIST = "/maintenances?tab=types";

export const LOCATION_FIELDS = {
  /** The button pressed: "find", "building:<id>", "page:<n>", "close". */
  browse: "locBrowse",
  search: "locQ",
  /** The building whose rooms are shown (no search). */
  open: "locOpen",
  page: "locPage",
} as const;

/** Rooms per page of the picker. */
export const LOCATION_PAGE_SIZE = 25;
