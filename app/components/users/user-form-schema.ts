import { z } from "zod";
import { WRONG_NAME } from "~/lib/archive";
import { ArchiveUserSchema, linksRequired, NewStatusSchema, UpdateUserSchema } from "~/modules/users/schema";

/**
 * The forms of /add-user and /update-user/{id} (client-safe): the intents of the page and the form
 * shapes where a form differs from the verb's input (CreateUserSchema is the add form as it is).
 */
export { CREATE_INTENT, RESEND_INTENT, STATUS_INTENT, UPDATE_INTENT, USERS_LIST, ASSIGNEE_SEARCH_FIELD } from "./user-form-constants";

/**
 * The update form: the verb's fields, with the picture as a file input beside it (`newPicture`) and a
 * "remove the picture" checkbox; the route turns them into `updatePicture`/`newPicture`. The status
 * has its own small form.
 */
export const UpdateUserFormSchema = UpdateUserSchema.omit({ status: true, updatePicture: true, newPicture: true })
  .extend({
    removePicture: z.boolean({ error: "users:validation.invalid" }).default(false),
  })
  .superRefine(linksRequired, { when: () => true });

/** The status toggle: active 2 or disabled 3. */
export const StatusFormSchema = z.object({ newStatus: NewStatusSchema });

/**
 * The archive dialog: the retyped full name is required here (an empty field would post nothing, and
 * the verb checks the name only when one is given), then the two reassignment choices (0: unassigned).
 */
export const ArchiveUserFormSchema = ArchiveUserSchema.extend({
  confirmName: z.string({ error: WRONG_NAME }).max(300, WRONG_NAME),
});
