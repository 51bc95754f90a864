import { redirect } from "@remix-run/node";
import { z } from "zod";
import { ENTRY_PARAM, LINE_PARAM, VIEW_INTENTS } from "~/lib/incident-view";
import { asDomainError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { MaterialLineSchema, TimeEntrySchema } from "~/modules/time-costs/schema";
import { addMaterialLine, deleteMaterialLine, deleteTimeEntry, recordTime, startClock, stopClock, updateMaterialLine, updateTimeEntry, type WorkTarget } from "~/modules/time-costs/service.server";
import { formIntent, type IntentArgs } from "./screen.server";
import { toastHeader } from "./toast.server";

/**
 * The forms of the time and materials section (issue 62), one table of intents for every screen that
 * shows it (the incident view, the task view): record, correct and delete time and material, start and
 * stop the clock, each one verb on the screen's record (`target`), then back to the section (`back`).
 * Plain posts: they work without JavaScript.
 */
const NoFields = z.object({});

/** The posted entry or line id (1 to 9 digits), or 0 (which the verbs answer "not found"). */
const postedId = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0;
};

/**
 * A clock's button: the verb, then back with `toast`; a refusal (a clock already running, none to stop,
 * not one's task, the record gone) is an error toast with the verb's message.
 */
function clockIntent<S>(target: (args: IntentArgs<S>) => WorkTarget, back: (args: IntentArgs<S>) => string, toast: string, verb: typeof startClock | typeof stopClock) {
  return async (args: IntentArgs<S>) => {
    try {
      await verb(args.ctx, target(args));
    } catch (error) {
      const known = asDomainError(error);
      if (!known) logger().error({ err: error }, "work clock: could not save");
      const key = known && known.status < 500 ? known.messageKey : "common:errors.couldNotSave";
      return redirect(back(args), { headers: { "Set-Cookie": await toastHeader({ type: "error", key }) } });
    }
    return redirect(back(args), { headers: { "Set-Cookie": await toastHeader({ type: "success", key: toast }) } });
  };
}

export function workIntents<S>(target: (args: IntentArgs<S>) => WorkTarget, back: (args: IntentArgs<S>) => string) {
  // Deleting an entry that is gone or not one's own is an error toast at the section, not a field error.
  const failure = { toast: "timeCosts:errors.deleteFailed", to: back, inputErrors: false };
  return {
    [VIEW_INTENTS.recordTime]: formIntent({ schema: TimeEntrySchema, redirectTo: back, toast: "timeCosts:success.timeRecorded" }, (value, args: IntentArgs<S>) =>
      recordTime(args.ctx, target(args), value),
    ),
    [VIEW_INTENTS.addMaterial]: formIntent({ schema: MaterialLineSchema, redirectTo: back, toast: "timeCosts:success.lineAdded" }, (value, args: IntentArgs<S>) =>
      addMaterialLine(args.ctx, target(args), value),
    ),
    [VIEW_INTENTS.updateTime]: formIntent({ schema: TimeEntrySchema, redirectTo: back, toast: "timeCosts:success.timeUpdated" }, (value, args: IntentArgs<S>) =>
      updateTimeEntry(args.ctx, target(args), postedId(args.formData, ENTRY_PARAM), value),
    ),
    [VIEW_INTENTS.updateMaterial]: formIntent({ schema: MaterialLineSchema, redirectTo: back, toast: "timeCosts:success.lineUpdated" }, (value, args: IntentArgs<S>) =>
      updateMaterialLine(args.ctx, target(args), postedId(args.formData, LINE_PARAM), value),
    ),
    [VIEW_INTENTS.deleteTime]: formIntent({ schema: NoFields, redirectTo: back, toast: "timeCosts:success.timeDeleted", failure }, (_, args: IntentArgs<S>) =>
      deleteTimeEntry(args.ctx, target(args), postedId(args.formData, ENTRY_PARAM)),
    ),
    [VIEW_INTENTS.deleteMaterial]: formIntent({ schema: NoFields, redirectTo: back, toast: "timeCosts:success.lineDeleted", failure }, (_, args: IntentArgs<S>) =>
      deleteMaterialLine(args.ctx, target(args), postedId(args.formData, LINE_PARAM)),
    ),
    [VIEW_INTENTS.startClock]: clockIntent(target, back, "timeCosts:success.clockStarted", startClock),
    [VIEW_INTENTS.stopClock]: clockIntent(target, back, "timeCosts:success.clockStopped", stopClock),
  };
}
