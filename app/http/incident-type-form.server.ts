import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { z } from "zod";
import { HELPER_FIELDS, PICKER_MOVES, PICKER_PAGE_SIZE, pickerIntent, PICKERS, type PickerKind, type PickerMove, TRANSLATE_INTENT, type TranslateOutcome } from "~/lib/incident-type-form";
import type { ServiceContext } from "~/core/context.server";
import { searchParam } from "~/lib/list-query";
import { listEquipmentTypeOptions } from "~/modules/equipment/queries.server";
import { NAME_LANGUAGES, type NameLanguage } from "~/modules/incident-types/schema";
import { type AssigneeChoice, getAssigneeChoices, getRoomChoices, type RoomChoice } from "~/modules/incident-types/screen-queries.server";
import { translateNames } from "~/modules/incident-types/service.server";
import { listRoomTypeOptions, listRooms } from "~/modules/rooms/queries.server";
import { listAssignees } from "~/modules/users/queries.server";
import { serviceFailed } from "./form-action.server";
import { postedIds } from "./pickers.server";
import type { FormIntent, Intent, IntentArgs } from "./screen.server";

/**
 * What the incident type form of /add-incident-type and /update-incident-type/{id} needs from the
 * server besides the verbs: its options (room types, generic equipment, and the rooms' and default
 * assignees' searchable, paged checklists), and the answers of its helper buttons ("Translate to the
 * others", the checklists' search and pages), which render the form again, input kept, nothing saved.
 */

/** One page of a searchable checklist. */
export interface ChoicePage<T> {
  q: string;
  page: number;
  pages: number;
  total: number;
  options: T[];
}

export interface IncidentTypeFormOptions {
  roomTypes: { id: number; name: string }[];
  equipmentTypes: { id: number; name: string; categoryName: string }[];
  rooms: { chosen: RoomChoice[]; search: ChoicePage<RoomChoice> };
  assignees: { chosen: AssigneeChoice[]; search: ChoicePage<AssigneeChoice> };
}


const pageOf = (params: URLSearchParams | FormData, name: string) => {
  const value = params.get(name);
  return typeof value === "string" && /^\d{1,6}$/.test(value) && Number(value) > 0 ? Number(value) : 1;
};

const pagesOf = (total: number) => Math.max(1, Math.ceil(total / PICKER_PAGE_SIZE));

/**
 * The form's options; the checklists' searches and pages are read from the URL (a page) or the posted
 * form (a helper's answer). `chosen` names the checked rooms and assignees.
 */
export async function incidentTypeFormOptions(
  ctx: ServiceContext,
  params: URLSearchParams | FormData,
  chosen: { roomIds: number[]; assigneeIds: number[] },
): Promise<IncidentTypeFormOptions> {
  const roomQ = searchParam(params, PICKERS.rooms.search);
  const assigneeQ = searchParam(params, PICKERS.assignees.search);
  const roomPage = pageOf(params, PICKERS.rooms.page);
  const assigneePage = pageOf(params, PICKERS.assignees.page);
  const [roomTypes, equipmentTypes, rooms, chosenRooms, assignees, chosenAssignees] = await Promise.all([
    listRoomTypeOptions(ctx),
    listEquipmentTypeOptions(ctx),
    listRooms(ctx, { page: roomPage, size: PICKER_PAGE_SIZE, sort: "name", dir: "asc", q: roomQ }),
    getRoomChoices(ctx, chosen.roomIds),
    listAssignees(ctx, { q: assigneeQ, page: assigneePage, size: PICKER_PAGE_SIZE }),
    getAssigneeChoices(ctx, chosen.assigneeIds),
  ]);
  return {
    roomTypes,
    equipmentTypes: equipmentTypes.map(({ id, name, categoryName }) => ({ id, name, categoryName })),
    rooms: {
      chosen: chosenRooms,
      search: {
        q: roomQ,
        page: rooms.page,
        pages: pagesOf(rooms.total),
        total: rooms.total,
        options: rooms.items.map((r) => ({ id: r.id, name: r.name, buildingName: r.buildingName, facilityName: r.facilityName })),
      },
    },
    assignees: {
      chosen: chosenAssignees,
      search: {
        q: assigneeQ,
        page: assignees.page,
        pages: pagesOf(assignees.total),
        total: assignees.total,
        options: assignees.items.map(({ id, name, surname }) => ({ id, name, surname })),
      },
    },
  };
}

/** The rooms and assignees the posted form holds checked. */
export function postedChoices(formData: FormData) {
  return { roomIds: postedIds(formData, "roomIds"), assigneeIds: postedIds(formData, "defaultAssigneeIds") };
}

const asStrings = (value: unknown) => ([] as unknown[]).concat(value ?? []).filter((v): v is string => typeof v === "string");
const textOf = (value: unknown) => (typeof value === "string" ? value : null);

/**
 * The save intent (`save`, a form intent): on failure (or a checklist button without JavaScript), the
 * form's answer carries its options read from the posted form, so that the checked rooms and assignees
 * stay listed, named, with the search the user made.
 */
export function withPostedOptions<S>(save: FormIntent<S>) {
  return async (args: IntentArgs<S>) => {
    const answer = await save(args);
    if (!("data" in answer)) return answer;
    const options = await incidentTypeFormOptions(args.ctx, args.formData, postedChoices(args.formData));
    return data({ ...answer.data, options }, answer.init ?? undefined);
  };
}

/** The posted form as it was (input kept, no error shown), minus the helpers' own fields. */
function keepInput(formData: FormData) {
  const submission = parseWithZod(formData, { schema: z.object({}).passthrough() });
  const payload = submission.payload as Record<string, unknown>;
  for (const name of [...HELPER_FIELDS, PICKERS.rooms.search, PICKERS.assignees.search]) delete payload[name];
  return submission;
}

/**
 * The intents of the form's helper buttons: "Translate to the others" (`intent=translate`) and each
 * checklist's search and pages (`intent=rooms-next`, ...). Each answers under the form's `saveIntent`,
 * with a new `revision` so that the form starts again from the kept input; nothing is saved.
 */
export function incidentTypeHelpers(saveIntent: string): Record<string, Intent<unknown>> {
  const helpers: Record<string, Intent<unknown>> = { [TRANSLATE_INTENT]: ({ ctx, formData }) => translate(ctx, formData, saveIntent) };
  for (const kind of Object.keys(PICKERS) as PickerKind[]) {
    for (const move of PICKER_MOVES) helpers[pickerIntent(kind, move)] = ({ ctx, formData }) => movePicker(ctx, formData, saveIntent, kind, move);
  }
  return helpers;
}

/** A checklist's search or page: the form again with that checklist's new page. */
async function movePicker(ctx: ServiceContext, formData: FormData, saveIntent: string, kind: PickerKind, move: PickerMove) {
  const { page } = PICKERS[kind];
  const current = pageOf(formData, page);
  formData.set(page, String(move === "find" ? 1 : move === "prev" ? Math.max(1, current - 1) : current + 1));
  const options = await incidentTypeFormOptions(ctx, formData, postedChoices(formData));
  return data({ intent: saveIntent, result: keepInput(formData).reply(), revision: Date.now(), options, focus: kind });
}

/**
 * "Translate to the others": the names, and each checklist question's languages, filled in from the one
 * given (or copied); copied names are marked as not translated by a person.
 */
async function translate(ctx: ServiceContext, formData: FormData, saveIntent: string) {
  const submission = keepInput(formData);
  const payload = submission.payload as Record<string, unknown>;
  const options = await incidentTypeFormOptions(ctx, formData, postedChoices(formData));
  const items = (Array.isArray(payload.checklist) ? payload.checklist : []) as Record<string, unknown>[];
  let translated;
  try {
    translated = await translateNames(ctx, {
      nameEn: textOf(payload.nameEn),
      nameFr: textOf(payload.nameFr),
      nameNl: textOf(payload.nameNl),
      checklist: items.map((item) => ({ question: textOf(item.question), questionFr: textOf(item.questionFr), questionNl: textOf(item.questionNl) })),
    });
  } catch (error) {
    const failed = serviceFailed(saveIntent, (reply) => submission.reply(reply), error);
    return data({ ...failed.data, revision: Date.now(), options }, { status: failed.init?.status ?? 400 });
  }
  payload.nameEn = translated.nameEn ?? undefined;
  payload.nameFr = translated.nameFr ?? undefined;
  payload.nameNl = translated.nameNl ?? undefined;
  translated.checklist.forEach((question, index) => {
    items[index].question = question.question ?? undefined;
    items[index].questionFr = question.questionFr ?? undefined;
    items[index].questionNl = question.questionNl ?? undefined;
  });
  // The copies made now are marked; an earlier mark stays while its name is still another's copy.
  const names = { en: translated.nameEn, fr: translated.nameFr, nl: translated.nameNl };
  const earlier = new Set(asStrings(payload.untranslated));
  const fresh = new Set<string>(translated.untranslated);
  const marked = (lang: NameLanguage) => fresh.has(lang) || earlier.has(lang);
  payload.untranslated = NAME_LANGUAGES.filter(
    (lang) => fresh.has(lang) || (earlier.has(lang) && NAME_LANGUAGES.some((other) => other !== lang && !marked(other) && names[other] === names[lang])),
  );
  const outcome: TranslateOutcome = translated.outcome;
  return data({ intent: saveIntent, result: submission.reply(), revision: Date.now(), options, translated: outcome });
}
