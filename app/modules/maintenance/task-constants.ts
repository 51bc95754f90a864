/**
 * The task forms' names and limits, without zod so that pages import them without the validation code
 * (decision 021); ./task-schema has the schemas and re-exports these.
 */

/** The intents of the task forms (/task, /view-task): mark done, undo. */
export const TASK_DONE_INTENT = "done";
export const TASK_UNDO_INTENT = "undo";

/** The longest completion note. */
export const TASK_NOTE_MAX = 2000;
