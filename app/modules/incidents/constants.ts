/**
 * Client-safe constants of the incidents area: the sorts, statuses and filters of the
 * table and the board, and the limits the forms show before any validation code loads.
 */
import { IncidentStatus } from "~/db/enums";

/**
 * SPEC.md section 3: the seven sort fields of the incidents table, and the service levels' due time (issue
 * 62, decision 064: the stored `next_due_at`, incidents without a running clock last).
 */
export const INCIDENT_SORTS = ["createdAt", "title", "priority", "status", "assignee", "occurrences", "shortId", "due"] as const;
export type IncidentSort = (typeof INCIDENT_SORTS)[number];

/** The kanban columns, in order (Archived has no column). */
export const BOARD_STATUSES = [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS, IncidentStatus.DONE, IncidentStatus.REJECTED] as const;

/** Cards per kanban column page. */
export const BOARD_PAGE_SIZE = 20;

/** The statuses a user may choose (section 3; Archived included, it has no column). */
export const SETTABLE_STATUSES = [
  IncidentStatus.PENDING,
  IncidentStatus.IN_PROGRESS,
  IncidentStatus.DONE,
  IncidentStatus.REJECTED,
  IncidentStatus.ARCHIVED,
] as const;

/** The priority "Not Selected" in URLs and forms (stored as NULL). */
export const NO_PRIORITY = "none";
/** The assignee filter values besides a user id. */
export const ASSIGNEE_ME = "me";
export const ASSIGNEE_NONE = "none";

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5000;
export const COMMENT_MAX = 5000;
/** At most this many incidents in one bulk change (one page of the table). */
export const BULK_MAX = 100;
/** Files attached to one comment, or added to an incident at once. */
export const MAX_ATTACHMENTS = 10;

/** Comments shown on the incident view at first, and on the printed work order. */
export const COMMENTS_PAGE = 50;
export const EVENTS_PAGE = 100;
export const WORK_ORDER_COMMENTS = 5;

/** The name of the cookie that keeps the last filters of /incidents (SPEC.md section 3, "filters"). */
export const FILTERS_COOKIE = "incident-filters";

/** URL parameters of the list (table and board); everything else is ignored. */
export const FILTER_PARAMS = ["view", "status", "priority", "assignee", "type", "facility", "building", "room", "tag", "from", "to", "q", "sort", "dir", "size"] as const;

