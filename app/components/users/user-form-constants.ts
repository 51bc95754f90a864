/**
 * The intents and addresses of /add-user and /update-user/{id}, without zod (the page loads the form
 * schemas only when a form is first used, decision 021).
 */
export const CREATE_INTENT = "create";
export const UPDATE_INTENT = "update";
export const STATUS_INTENT = "status";
export const RESEND_INTENT = "resend";

export const USERS_LIST = "/users";

/** The archive dialog's assignee search (a GET parameter, so it works without JavaScript). */
export const ASSIGNEE_SEARCH_FIELD = "assigneeQ";
