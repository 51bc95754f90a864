import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { z } from "zod";
import type { ServiceContext } from "~/core/context.server";
import { searchParam } from "~/lib/list-query";
import { pickFields } from "~/lib/fields";
import { LOCATION_FIELDS, LOCATION_PAGE_SIZE } from "~/lib/maintenance-form";
import { type LocationTree, readLocationTree } from "~/modules/maintenance/location-tree.server";
import type { MaintenanceTypeDetail } from "~/modules/maintenance/queries.server";
import { MAINTENANCE_TYPE_FIELDS } from "~/modules/maintenance/schema";
import { postedIds } from "./pickers.server";
import type { FormIntent, Intent, IntentArgs } from "./screen.server";

/**
 * What the maintenance forms (/add-maintenance-type, /update-maintenance-type/{id},
 * /add-planned-maintenance, /update-planned-maintenance/{id}) need from the server besides the verbs:
 * the location tree picker's data, read from the address (a page) or the posted form (the picker's own
 * buttons, a refused save), and the answer to the picker's buttons: the form again, input kept, nothing
 * saved.
 */

export interface ChosenLocations {
  facilityIds: number[];
  buildingIds: number[];
  roomIds: number[];
  equipmentItemIds: number[];
}

export const NO_LOCATIONS: ChosenLocations = { facilityIds: [], buildingIds: [], roomIds: [], equipmentItemIds: [] };

/** The type form's values of a saved type (the edit screen): its declared fields (schema.ts) and its plans' defaults. */
export function typeFormValues(type: MaintenanceTypeDetail) {
  return {
    ...pickFields(MAINTENANCE_TYPE_FIELDS, type),
    assigneeIds: type.assignees.map((p) => p.id),
    roomIds: type.rooms.map((r) => r.id),
    equipmentItemIds: type.equipmentItems.map((i) => i.id),
  };
}

const positive = (value: FormDataEntryValue | null, fallback: number | null) =>
  typeof value === "string" && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : fallback;

/** The ids the posted form holds checked. */
export function postedLocations(formData: FormData): ChosenLocations {
  return {
    facilityIds: postedIds(formData, "facilityIds"),
    buildingIds: postedIds(formData, "buildingIds"),
    roomIds: postedIds(formData, "roomIds"),
    equipmentItemIds: postedIds(formData, "equipmentItemIds"),
  };
}

/**
 * The picker's data: its search, open building and page from `params`, after the move a pressed
 * picker button names (`locBrowse`: find, building:<id>, page:<n>, close).
 */
export async function locationTreeOf(ctx: ServiceContext, params: URLSearchParams | FormData, chosen: ChosenLocations): Promise<LocationTree> {
  let q = searchParam(params, LOCATION_FIELDS.search);
  let open = positive(params.get(LOCATION_FIELDS.open), null);
  let page = positive(params.get(LOCATION_FIELDS.page), 1) ?? 1;
  const move = params.get(LOCATION_FIELDS.browse);
  if (typeof move === "string") {
    const [kind, value] = move.split(":");
    if (kind === "find") page = 1;
    else if (kind === "building") {
      open = positive(value, null);
      q = "";
      page = 1;
    } else if (kind === "page") page = positive(value, 1) ?? 1;
    else if (kind === "close") {
      open = null;
      q = "";
      page = 1;
    }
  }
  return readLocationTree(ctx, { q, openBuildingId: open, page, pageSize: LOCATION_PAGE_SIZE, chosen });
}

/** The posted form as it was (input kept, no error shown), minus the picker's own fields. */
function keepInput(formData: FormData) {
  const submission = parseWithZod(formData, { schema: z.object({}).passthrough() });
  const payload = submission.payload as Record<string, unknown>;
  for (const name of ["intent", ...Object.values(LOCATION_FIELDS)]) delete payload[name];
  return submission.reply();
}

/** A save that failed answers the form with the picker as the user left it (the chosen locations named). */
export function withPostedTree<S>(save: FormIntent<S>) {
  return async (args: IntentArgs<S>) => {
    const answer = await save(args);
    if (!("data" in answer)) return answer;
    const tree = await locationTreeOf(args.ctx, args.formData, postedLocations(args.formData));
    return data({ ...answer.data, tree }, answer.init ?? undefined);
  };
}

/**
 * The intent of a post that names none: a picker button (`locBrowse`) answers the form again under
 * `saveIntent`, with a new `revision` so that the form starts again from the kept input; anything else
 * (conform's tag buttons without JavaScript) is the form's own save intent.
 */
export function locationBrowser<S>(saveIntent: string, save: Intent<S>): Intent<S> {
  return async (args) => {
    if (!args.formData.has(LOCATION_FIELDS.browse)) return save({ ...args, intent: saveIntent });
    const tree = await locationTreeOf(args.ctx, args.formData, postedLocations(args.formData));
    return data({ intent: saveIntent, result: keepInput(args.formData), revision: Date.now(), tree });
  };
}
