/**
 * Names shared by the incident view's forms (app/components/incidents/view) and its action
 * (app/routes/incident.tsx), without zod so that the page imports them without validation
 * code (decision 021). Every form posts one `intent`; every dialog is a URL (`?dialog=...`).
 */
export const VIEW_INTENTS = {
  status: "status",
  priority: "priority",
  assign: "assign",
  addTag: "addTag",
  removeTag: "removeTag",
  title: "title",
  description: "description",
  duplicate: "duplicate",
  comment: "comment",
  editComment: "editComment",
  deleteComment: "deleteComment",
  addFiles: "addFiles",
  deleteFile: "deleteFile",
  recordTime: "recordTime",
  updateTime: "updateTime",
  deleteTime: "deleteTime",
  addMaterial: "addMaterial",
  updateMaterial: "updateMaterial",
  deleteMaterial: "deleteMaterial",
  startClock: "startClock",
  stopClock: "stopClock",
  downtime: "downtime",
} as const;
export type ViewIntent = (typeof VIEW_INTENTS)[keyof typeof VIEW_INTENTS];

/** The dialogs of SPEC.md section 2 on the incident view, plus the delete confirmations. */
export const VIEW_DIALOGS = ["status", "assign", "priority", "tags", "title", "description", "duplicate", "delete-comment", "delete-file", "delete-time", "delete-material"] as const;
export type ViewDialog = (typeof VIEW_DIALOGS)[number];

/** URL parameters of the view: the comment being edited, the one (or the file) a delete dialog asks about, the assign dialog's search. */
export const EDIT_PARAM = "edit";
export const COMMENT_PARAM = "comment";
export const FILE_PARAM = "file";
/** The time entry or material line a delete dialog asks about. */
export const ENTRY_PARAM = "entry";
export const LINE_PARAM = "line";
/** The time entry or material line being corrected (`?editEntry=5`): its form replaces the add form. */
export const EDIT_ENTRY_PARAM = "editEntry";
export const EDIT_LINE_PARAM = "editLine";
export const ASSIGNEE_Q_PARAM = "assigneeQ";
export const ASSIGNEE_PAGE_PARAM = "assigneePage";
/** The activity tabs (`?activity=history`): the events, or the history (comments and events in time order). */
export const ACTIVITY_PARAM = "activity";
export const ACTIVITY_TABS = ["events", "history"] as const;
export type ActivityTab = (typeof ACTIVITY_TABS)[number];

/**
 * How many of the latest comments and events the view shows (`?comments=100&events=200`): "Show earlier"
 * adds a page each time, up to a maximum (the REST calls page through the rest).
 */
export const COMMENTS_SHOWN_PARAM = "comments";
export const EVENTS_SHOWN_PARAM = "events";
export const MAX_COMMENTS_SHOWN = 500;
export const MAX_EVENTS_SHOWN = 1000;

/** The number to show from the address's value: at least one page, at most `max`. */
export function shownCount(value: number | null | undefined, page: number, max: number): number {
  return Math.min(Math.max(value ?? page, page), max);
}

/** Users per page of the assign dialog (and of /incident/{id}/assignee-options). */
export const ASSIGNEES_PAGE_SIZE = 20;

/** The anchor of the comments section (SPEC.md section 2: /incident/{id}#commentSection). */
export const COMMENT_SECTION = "commentSection";
export const ACTIVITY_SECTION = "activity";
/** The task whose time and materials the task view shows (`/view-task/{id}/{date}?work=<taskId>`). */
export const WORK_TASK_PARAM = "work";

/** The anchor of the time and materials section (issue 62). */
export const WORK_SECTION = "time-and-materials";

export const incidentPath = (id: number) => `/incident/${id}`;

/** What an incident the viewer cannot see is (another entity's, outside their reach, unknown, or a malformed id). */
export const INCIDENT_NOT_FOUND = "incidents:errors.notFound";
