import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { ARCHIVE_INTENT, type ArchiveInput, ArchiveSchema } from "~/lib/archive";
import { asDomainError, ForbiddenError, type FieldErrors, ValidationError } from "~/lib/errors";
import { CONTROL_CHARACTERS_MESSAGE, controlCharacterPaths } from "~/lib/text";
import { logger } from "~/lib/logger.server";
import { toastHeader } from "~/http/toast.server";
import type { Upload } from "~/modules/files/uploads.server";

/**
 * The form transport (STYLE.md "Forms"): what every route action shares. A failed submission answers
 * 400 with conform's reply so the user's input is kept and the errors sit beside their fields; a
 * service's domain error is mapped to the same shape; anything unexpected becomes "Could not save".
 */
export interface FormFailure<I extends string = string> {
  intent: I;
  result: SubmissionResult<string[]>;
}

export function formFailed<I extends string>(intent: I, result: SubmissionResult<string[]>, status = 400) {
  return data<FormFailure<I>>({ intent, result }, { status });
}

export type Reply = (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>;

/** Service paths ("equipments.0.internalReference") as conform names ("equipments[0].internalReference"). */
export function conformName(path: string): string {
  return path.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
}

/**
 * Maps a service error to the form: field errors beside their fields (renamed with `fieldMap` when
 * the form names a field differently), anything else above the form. Forbidden goes to /forbidden.
 */
export function serviceFailed<I extends string>(
  intent: I,
  reply: Reply,
  error: unknown,
  options: { fieldMap?: Record<string, string>; couldNotSave?: string } = {},
) {
  if (error instanceof ForbiddenError) throw redirect("/forbidden");
  const known = asDomainError(error);
  if (known) {
    const fieldErrors: Record<string, string[]> = {};
    const formErrors: string[] = [];
    for (const [key, messages] of Object.entries(known.fieldErrors ?? {})) {
      if (key === "_form") formErrors.push(...messages);
      else {
        const name = conformName(options.fieldMap?.[key] ?? key);
        fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
      }
    }
    if (!known.fieldErrors || Object.keys(known.fieldErrors).length === 0) formErrors.push(known.messageKey);
    return formFailed(intent, reply({ formErrors, fieldErrors }), [404, 503, 507].includes(known.status) ? known.status : 400);
  }
  logger().error({ err: error, intent }, "form action: could not save");
  return formFailed(intent, reply({ formErrors: [options.couldNotSave ?? "common:errors.couldNotSave"] }), 500);
}

/**
 * Fields of a posted form holding control characters (a NUL byte, ...), each with its error; null
 * when there are none. Every form action checks this before its schema, whatever the schema says.
 */
export function controlCharacterErrors(formData: FormData): FieldErrors | null {
  const entries: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value === "string") entries[key] = value;
    else if (controlCharacterPaths(key).length) entries[key] = key;
  }
  const paths = controlCharacterPaths(entries);
  if (!paths.length) return null;
  return Object.fromEntries(paths.map((path) => [path, [CONTROL_CHARACTERS_MESSAGE]]));
}

/** The same check as a thrown validation error, for actions that parse their form themselves. */
export function refuseControlCharacters(formData: FormData): void {
  const errors = controlCharacterErrors(formData);
  if (errors) throw new ValidationError(errors);
}

/** Success: to `to`, with a success toast (an i18n key such as "common:toast.created"). */
export async function redirectWithToast(to: string, key: string) {
  return redirect(to, { headers: { "Set-Cookie": await toastHeader({ type: "success", key }) } });
}

/** How `submitForm` answers one form. */
export interface SubmitOptions<I extends string, S extends z.ZodType> {
  /** The form's intent: its reply is answered under it (`useResultFor(intent)`). */
  intent: I;
  schema: S;
  /** Where a saved form goes, with `toast` (an i18n key such as "common:toast.created"). */
  redirectTo: string;
  toast: string;
  /** Fields the reply does not send back (passwords). */
  hideFields?: string[];
  /** The message above the form when saving failed unexpectedly ("Could not save" unless said). */
  couldNotSave?: string;
  /**
   * A failure that is not the user's input (the record is gone, is someone else's, the server failed)
   * is an error toast (`failure.toast`) on the page `failure.to`, not an error beside a field (SPEC.md
   * section 8: failing to post, update or delete a comment). With `inputErrors: false` every failure is
   * (a form without fields of its own, such as deleting a file).
   */
  failure?: { toast: string; to: string; inputErrors?: boolean };
}

/**
 * One form of a screen, posted: parse it with `schema`, call the service once (`save`, given the
 * parsed value), then go to `redirectTo` with `toast`. An invalid form or a service error answers
 * the form under its `intent` (formFailed / serviceFailed), the user's input kept.
 */
export async function submitForm<I extends string, S extends z.ZodType>(
  formData: FormData,
  options: SubmitOptions<I, S>,
  save: (value: z.output<S>) => Promise<unknown>,
) {
  const { intent, hideFields, failure } = options;
  const submission = parseWithZod(formData, { schema: options.schema });
  const reply: Reply = (errors) => submission.reply({ ...errors, hideFields });
  const control = controlCharacterErrors(formData);
  if (control) return formFailed(intent, reply({ fieldErrors: control }));
  if (submission.status !== "success") return formFailed(intent, submission.reply({ hideFields }));
  try {
    await save(submission.value);
  } catch (error) {
    if (!failure) return serviceFailed(intent, reply, error, { couldNotSave: options.couldNotSave });
    const known = asDomainError(error);
    if (known?.status === 400 && failure.inputErrors !== false) return serviceFailed(intent, reply, error);
    if (!known) logger().error({ err: error, intent }, "form action: could not save");
    return redirect(failure.to, { headers: { "Set-Cookie": await toastHeader({ type: "error", key: failure.toast }) } });
  }
  return redirectWithToast(options.redirectTo, options.toast);
}

/**
 * The archive confirmation of an update screen (`intent=archive`, the dialog of
 * ~/components/forms/archive-dialog): the retyped name goes to the archive verb, which checks it
 * ("Wrong Name" beside the field); then to `redirectTo` with "Archived".
 */
export function archiveAction(
  formData: FormData,
  archive: (confirm: ArchiveInput) => Promise<unknown>,
  { redirectTo }: { redirectTo: string },
) {
  return submitForm(formData, { intent: ARCHIVE_INTENT, schema: ArchiveSchema, redirectTo, toast: "common:toast.archived" }, (value) =>
    archive({ confirmName: value.confirmName }),
  );
}

/** A chosen file of the form (an empty file input posts nothing). */
export function uploadedFile(formData: FormData, name: string): File | null {
  return uploadedFiles(formData, name)[0] ?? null;
}

/** Every chosen file of a (multiple) file input. */
export function uploadedFiles(formData: FormData, name: string): File[] {
  return formData.getAll(name).filter((v): v is File => v instanceof File && (v.name !== "" || v.size > 0));
}

export async function toUpload(file: File): Promise<Upload> {
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
}

/** Every chosen file of a (multiple) file input, read for a service verb. */
export function uploadsOf(formData: FormData, name: string): Promise<Upload[]> {
  return Promise.all(uploadedFiles(formData, name).map(toUpload));
}

const MAX_TEXT_PART = 256 * 1024;

/**
 * The posted form, any encoding. A body that cannot be read as a form (a cut or malformed multipart
 * body, a content type that is not a form), or that conform could not read safely (`isReadableForm`),
 * answers 400, never 500.
 */
export async function formDataOf(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new Response("Bad Request", { status: 400 });
  }
  if (!isReadableForm(form)) throw new Response("Bad Request", { status: 400 });
  return form;
}

/**
 * The most fields a form may post. The app's largest forms post a few hundred (a room with its equipment,
 * a page of incidents); a megabyte of one-letter fields (100,000 of them) kept the server busy 1.3 s
 * answering the refused form again with all of them.
 */
const MAX_FORM_FIELDS = 20_000;
/** Slots the list indexes of a form may name beyond one per field (list items whose fields post nothing). */
const LIST_SLOT_MARGIN = 1000;
const LIST_INDEX = /\[(\d+)\]/g;
const CONFORM_INTENTS = new Set(["validate", "update", "reset", "insert", "remove", "reorder"]);

/**
 * Whether conform can read the form without being turned against the server (decision 038):
 * - At most MAX_FORM_FIELDS fields.
 * - Conform builds a list up to the highest index a field name gives (`tags[3]`, `equipments[0].id`),
 *   so one field named `email[99999999]` allocated a hundred million slots, blocked the server for a
 *   minute and ended it out of memory. The lists a form names, together, may hold at most two slots
 *   per field posted plus a margin; the forms the app renders name one slot per item.
 * - A list button's `__intent__` (insert, remove, reorder, ...) is JSON that conform applies to the
 *   form: one that is not such an intent, or that conform cannot apply (a name that is not a list,
 *   a path it refuses), made it throw. Its name counts with the fields, and a form with an intent is
 *   read once here, so that anything conform throws answers 400.
 */
function isReadableForm(form: FormData): boolean {
  const names: string[] = [];
  let fields = 0;
  let intent = false;
  for (const [name, value] of form.entries()) {
    if (++fields > MAX_FORM_FIELDS) return false;
    names.push(name);
    if (name !== "__intent__") continue;
    intent = true;
    const payloadName = intentName(value);
    if (payloadName === false) return false;
    if (payloadName !== null) names.push(payloadName);
  }
  const highest = new Map<string, number>();
  for (const name of names) {
    for (const match of name.matchAll(LIST_INDEX)) {
      const list = name.slice(0, match.index);
      const index = Number(match[1]);
      if (index > (highest.get(list) ?? -1)) highest.set(list, index);
    }
  }
  let slots = 0;
  for (const index of highest.values()) slots += index + 1;
  if (slots > 2 * fields + LIST_SLOT_MARGIN) return false;
  if (!intent) return true;
  try {
    parseWithZod(form, { schema: z.any() });
    return true;
  } catch {
    return false;
  }
}

/** The list name a conform intent acts on (null for none), or false for a value that is not an intent. */
function intentName(value: FormDataEntryValue): string | null | false {
  if (typeof value !== "string") return false;
  let intent: unknown;
  try {
    intent = JSON.parse(value);
  } catch {
    return false;
  }
  if (typeof intent !== "object" || intent === null || Array.isArray(intent)) return false;
  const { type, payload } = intent as { type?: unknown; payload?: unknown };
  if (typeof type !== "string" || !CONFORM_INTENTS.has(type)) return false;
  if (payload === undefined) return null;
  if (typeof payload !== "object" || payload === null) return false;
  const name = (payload as { name?: unknown }).name;
  if (name === undefined) return null;
  return typeof name === "string" ? name : false;
}

/**
 * Reads a posted form that may carry files. The body's size is already capped while it is read
 * (server/body-limit.ts); multipart bodies are parsed by the platform's parser (undici: 7.8 MB of
 * photos in about 12 ms, against 70-100 ms for Remix's streaming parser, which is why that one is not
 * used). Then, as the forms expect: a file input left empty posts nothing, a file keeps at most
 * `maxBytes + 1` bytes (the service answers "too large" beside the field, and every other field is
 * kept), and a text part over 256 KiB is refused (413).
 */
export async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  const parsed = await formDataOf(request);
  if (!multipart) return parsed;
  const form = new FormData();
  for (const [name, value] of parsed) {
    if (typeof value === "string") {
      if (Buffer.byteLength(value) > MAX_TEXT_PART) throw new Response("Payload Too Large", { status: 413 });
      form.append(name, value);
    } else if (value.name !== "" || value.size > 0) {
      form.append(name, value.size > maxBytes + 1 ? new File([value.slice(0, maxBytes + 1)], value.name, { type: value.type }) : value);
    }
  }
  return form;
}
