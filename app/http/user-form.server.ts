import { data } from "@remix-run/node";
import type { ServiceContext } from "~/core/context.server";
import { ConflictError, ForbiddenError } from "~/lib/errors";
import { LINK_PICKER, NOTIFY_PICKER } from "~/lib/pickers";
import { getBuildingOptions } from "~/modules/facilities/queries.server";
import { listLinkableFacilities } from "~/modules/users/queries.server";
import { buildingPickerData, keepInputReply, postedIds } from "./pickers.server";
import type { IntentArgs } from "./screen.server";

/**
 * What the user forms of /add-user and /update-user/{id} need from the server besides the verbs: the
 * linked objects' tree picker (facilities with buildings, and the buildings' searchable checklist),
 * the notification buildings' checklist, and the answer to their searches without JavaScript.
 */


/** The linked objects' picker: the facilities the editor may link, the chosen buildings named, one page of matches. */
export async function linkPickerData(ctx: ServiceContext, params: URLSearchParams | FormData, chosenIds: number[]) {
  const [facilities, chosen, picker] = await Promise.all([
    listLinkableFacilities(ctx),
    getBuildingOptions(ctx, chosenIds),
    buildingPickerData(ctx, params, null, { fields: LINK_PICKER }),
  ]);
  return { facilities, chosen, search: picker.search };
}

/** The notification buildings' checklist: the chosen buildings named, one page of matches. */
export async function notifyPickerData(ctx: ServiceContext, params: URLSearchParams | FormData, chosenIds: number[]) {
  const [chosen, picker] = await Promise.all([getBuildingOptions(ctx, chosenIds), buildingPickerData(ctx, params, null, { fields: NOTIFY_PICKER })]);
  return { chosen, search: picker.search };
}

/**
 * A search or "More buildings" of one of the form's checklists without JavaScript (`linkAction` or
 * `notifyAction` = find | more): the name of the picker that asked, after dropping its cursor on a new
 * search; null for a real submission.
 */
function pickerAction(formData: FormData): "link" | "notify" | null {
  for (const [kind, picker] of [
    ["link", LINK_PICKER],
    ["notify", NOTIFY_PICKER],
  ] as const) {
    const action = formData.get(picker.action);
    if (action === "find" || action === "more") {
      if (action === "find") formData.delete(picker.after);
      return kind;
    }
  }
  return null;
}

/** The fields a picker's answer does not keep as input (its buttons and cursors, and a chosen picture, which cannot be kept). */
const PICKER_FIELDS = [LINK_PICKER.action, LINK_PICKER.after, NOTIFY_PICKER.action, NOTIFY_PICKER.after, "newPicture"];

/** The chosen ids the posted form holds for the two checklists. */
function postedBuildingIds(formData: FormData) {
  return { linked: postedIds(formData, "linkedObjects.buildingIds"), notify: postedIds(formData, "notificationSettings.buildingIds") };
}

/**
 * The user form's intent: a checklist's search or "More buildings" without JavaScript answers the form
 * again, input kept, with the matching buildings (the notification buildings too when the form has
 * them, `notify`); any other post of the form is `save`'s.
 */
export function withBuildingPickers<S, R>(save: (args: IntentArgs<S>) => R, options: { notify: boolean }) {
  return async (args: IntentArgs<S>) => {
    const { ctx, formData, intent } = args;
    if (!pickerAction(formData)) return save(args);
    const chosen = postedBuildingIds(formData);
    const [links, notify] = await Promise.all([linkPickerData(ctx, formData, chosen.linked), options.notify ? notifyPickerData(ctx, formData, chosen.notify) : null]);
    return data({ intent, result: keepInputReply(formData, PICKER_FIELDS), revision: Date.now(), links, ...(notify ? { notify } : {}) });
  };
}

/**
 * Runs a user verb for a form: "only an administrator may give the administrator role or change an
 * administrator" is an answer to this form (shown above it), not a forbidden page.
 */
export async function asFormError<T>(verb: Promise<T>): Promise<T> {
  try {
    return await verb;
  } catch (error) {
    if (error instanceof ForbiddenError && error.code === "ADMINISTRATOR_ONLY") throw new ConflictError(error.messageKey, error.code);
    throw error;
  }
}
