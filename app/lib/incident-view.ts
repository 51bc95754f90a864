/**
 * Names shared by the incident view's forms (app/components/incidents/view) and its action
 * (app/http/incident-view.server.ts), without zod so that the page imports them without validation
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
} as const;
export type ViewIntent = (typeof VIEW_INTENTS)[keyof typeof VIEW_INTENTS];

/** The dialogs of SPEC.md section 2 on the incident view, plus the two delete confirmations. */
export const VIEW_DIALOGS = ["status", "assign", "priority", "tags", "title", "description", "duplicate", "delete-comment", "delete-file"] as const;
export type ViewDialog = (typeof VIEW_DIALOGS)[number];

/** URL parameters of the view: the comment being edited, the one (or the file) a delete dialog asks about, the assign dialog's search. */
export const EDIT_PARAM = "edit";
export const COMMENT_PARAM = "comment";
export const FILE_PARAM = "file";
export const ASSIGNEE_Q_PARAM = "assigneeQ";
export const ASSIGNEE_PAGE_PARAM = "assigneePage";
/** The activity tabs (`?activity=history`): the events, or the history (comments and events in time order). */
export const ACTIVITY_PARAM = "activity";
export const ACTIVITY_TABS = ["events", "history"] as const;
export type ActivityTab = (typeof ACTIVITY_TABS)[number];

/** Users per page of the assign dialog (and of /incident/{id}/assignee-options). */
export const ASSIGNEES_PAGE_SIZE = 20;

/** The anchor of the comments section (SPEC.md section 2: /incident/{id}#commentSection). */
export const COMMENT_SECTION = "commentSection";
export const ACTIVITY_SECTION = "activity";

export const incidentPath = (id: number) => `/incident/${id}`;
