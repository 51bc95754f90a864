import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import type { z } from "zod";
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
    return formFailed(intent, reply({ formErrors, fieldErrors }), known.status === 404 ? 404 : 400);
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

/**
 * One form of a screen, posted: parse it with `schema`, call the service once (`save`, given the
 * parsed value), then go to `redirectTo` with `toast`. An invalid form or a service error answers
 * the form under its `intent` (formFailed / serviceFailed), the user's input kept.
 */
export async function submitForm<I extends string, S extends z.ZodType>(
  formData: FormData,
  options: { intent: I; schema: S; redirectTo: string; toast: string },
  save: (value: z.output<S>) => Promise<unknown>,
) {
  const submission = parseWithZod(formData, { schema: options.schema });
  const control = controlCharacterErrors(formData);
  if (control) return formFailed(options.intent, submission.reply({ fieldErrors: control }));
  if (submission.status !== "success") return formFailed(options.intent, submission.reply());
  try {
    await save(submission.value);
  } catch (error) {
    return serviceFailed(options.intent, (reply) => submission.reply(reply), error);
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
 * Reads the posted form. Multipart bodies are streamed: a file keeps at most `maxBytes + 1` bytes
 * (the service then answers "too large" beside the field, and every other field is kept), the rest is
 * drained; a text part over 256 KiB is refused.
 */
export async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  const handler: UploadHandler = async ({ filename, contentType, data: stream }) => {
    const limit = typeof filename === "string" ? maxBytes + 1 : MAX_TEXT_PART;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of stream) {
      if (size < limit) chunks.push(chunk.subarray(0, limit - size));
      size += chunk.byteLength;
    }
    if (typeof filename === "string") {
      if (filename === "" && size === 0) return undefined;
      return new File([new Uint8Array(Buffer.concat(chunks))], filename, { type: contentType });
    }
    if (size > MAX_TEXT_PART) throw new Response("Payload Too Large", { status: 413 });
    return new TextDecoder().decode(Buffer.concat(chunks));
  };
  return unstable_parseMultipartFormData(request, handler);
}
