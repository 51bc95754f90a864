import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { BUILDING_AFTER_FIELD, BUILDING_SEARCH_FIELD } from "~/lib/pickers";
import { searchParam } from "~/lib/list-query";
import type { ServiceContext } from "~/core/context.server";
import { type BuildingOption, getBuildingOption, searchBuildingOptions } from "~/modules/facilities/queries.server";

/** What a building picker renders: the chosen building, and one page of matches for its search. */
export interface BuildingPickerData {
  selected: BuildingOption | null;
  search: { q: string; options: BuildingOption[]; next: string | null };
}

/**
 * The building picker's data for a page or a form answer: the search (`buildingQ`) and the page cursor
 * (`buildingAfter`) read from the URL (a list's GET filters) or the posted form (the room form without
 * JavaScript), the chosen building looked up within the user's reach. `fields` renames the search and
 * cursor parameters (a form with two building checklists).
 */
export async function buildingPickerData(
  ctx: ServiceContext,
  params: URLSearchParams | FormData,
  selectedId: number | null,
  options: { facilityId?: number | null; fields?: { search: string; after: string } } = {},
): Promise<BuildingPickerData> {
  const fields = options.fields ?? { search: BUILDING_SEARCH_FIELD, after: BUILDING_AFTER_FIELD };
  const q = searchParam(params, fields.search);
  const after = params.get(fields.after);
  const [page, selected] = await Promise.all([
    searchBuildingOptions(ctx, { q, after: typeof after === "string" ? after : null, facilityId: options.facilityId ?? null }),
    getBuildingOption(ctx, selectedId),
  ]);
  return { selected, search: { q, ...page } };
}

/** The positive ids a posted form or URL holds under `name` (checkboxes of a checklist); anything else is dropped. */
export function postedIds(params: URLSearchParams | FormData, name: string): number[] {
  return params
    .getAll(name)
    .map((value) => (typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0))
    .filter((id) => id > 0);
}

/**
 * The answer to a picker's search or "More buildings" without JavaScript: the posted form as it was
 * (the user's input kept, no error shown), to render again with the matching buildings. `drop` names
 * further fields not to keep (the button that asked).
 */
export function keepInputReply(formData: FormData, drop: string[] = []): SubmissionResult<string[]> {
  const submission = parseWithZod(formData, { schema: z.object({}).passthrough() });
  const payload = submission.payload as Record<string, unknown>;
  for (const name of ["intent", BUILDING_SEARCH_FIELD, BUILDING_AFTER_FIELD, ...drop]) delete payload[name];
  return submission.reply();
}
