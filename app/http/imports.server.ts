import { data } from "@remix-run/node";
import { type Locale, isLocale } from "~/i18n";
import { getT } from "~/i18n.server";
import { can } from "~/core/actor";
import { asDomainError, DomainError, ForbiddenError } from "~/lib/errors";
import { importTypeBySlug } from "~/modules/imports/columns";
import { lineErrorLabel } from "~/modules/imports/types";
import { type DataJobLineError, ImportFileError, ImportRowsError } from "~/modules/imports/check.server";
import { getImportJob, type ImportJobView } from "~/modules/imports/queries.server";
import { formatSize, importMaxBytes, type ImportFileInput, previewImport, startImport } from "~/modules/imports/service.server";
import { csvTemplate, xlsxTemplate } from "~/modules/imports/templates.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { readFormData, redirectWithToast, toUpload, uploadedFile } from "./form-action.server";
import { notFound } from "./route-params.server";

/**
 * The transports of imports (decision 054): the import tab's two intents (check, import), the template
 * downloads and the REST answers. The verbs return codes and i18n keys; the texts are made here.
 */

/** A message as the screen translates it. */
export interface ImportMessage {
  key: string;
  params?: Record<string, string | number>;
}

/** What the import tab's form answers when it does not redirect. */
export type ImportFormAnswer =
  | { intent: "check"; status: "checked"; type: number; total: number }
  | { intent: "check" | "start"; status: "invalid"; type: number | null; total: number; file: ImportMessage | null; errors: DataJobLineError[] };

async function fileInput(formData: FormData): Promise<ImportFileInput> {
  const file = uploadedFile(formData, "file");
  return { type: formData.get("type"), file: file ? await toUpload(file) : null };
}

/** A file fault (or a form one: no file) as the form shows it. */
function fileMessage(error: unknown): ImportMessage | null {
  if (error instanceof ImportFileError) return { key: error.messageKey, params: error.params };
  const known = asDomainError(error);
  if (known && known.status < 500 && !(known instanceof ForbiddenError)) return { key: known.messageKey };
  return null;
}

/** The import tab's intents: `check` (the preview) and `start` (the preview again, then the job). */
export async function importIntent(intent: "check" | "start", ctx: FilesContext, formData: FormData) {
  const input = await fileInput(formData);
  const type = typeof input.type === "string" && /^\d$/.test(input.type) ? Number(input.type) : null;
  try {
    if (intent === "check") {
      const preview = await previewImport(ctx, input);
      if (preview.errors.length > 0) {
        return data<ImportFormAnswer>({ intent, status: "invalid", type, total: preview.total, file: null, errors: preview.errors }, { status: 400 });
      }
      return data<ImportFormAnswer>({ intent, status: "checked", type: preview.type, total: preview.total });
    }
    await startImport(ctx, input);
    return redirectWithToast("/import-data", "imports:started");
  } catch (error) {
    if (error instanceof ImportRowsError) {
      return data<ImportFormAnswer>({ intent, status: "invalid", type, total: error.preview.total, file: null, errors: error.preview.errors }, { status: 400 });
    }
    const message = fileMessage(error);
    if (!message) throw error;
    const status = error instanceof ImportFileError && error.code === "FILE_TOO_LARGE" ? 413 : asDomainError(error)?.status === 409 ? 409 : 400;
    return data<ImportFormAnswer>({ intent, status: "invalid", type, total: 0, file: message, errors: [] }, { status });
  }
}

/** The file size limit as the screen shows it. */
export const importLimitText = (ctx: FilesContext) => formatSize(importMaxBytes(ctx));

// ---------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------

/** The template named by the address's file (`rooms.xlsx`, `rooms.csv`); any other name is the 404 page. */
export function templateOf(file: string | undefined): { slug: string; format: "xlsx" | "csv" } {
  const match = /^([a-z-]{1,40})\.(xlsx|csv)$/.exec(file ?? "");
  if (!match || !importTypeBySlug(match[1])) throw notFound("imports:errors.unknownType");
  return { slug: match[1], format: match[2] as "xlsx" | "csv" };
}

export async function templateResponse(ctx: FilesContext, template: { slug: string; format: "xlsx" | "csv" }): Promise<Response> {
  const definition = importTypeBySlug(template.slug)!;
  const locale: Locale = isLocale(ctx.locale) ? ctx.locale : "en";
  const label = getT(locale) as unknown as (key: string) => string;
  const headers = { "Cache-Control": "private, no-store", "Content-Disposition": `attachment; filename="${template.slug}-template.${template.format}"` };
  if (template.format === "csv") {
    return new Response(csvTemplate(definition, label, locale === "en" ? "," : ";"), { headers: { ...headers, "Content-Type": "text/csv; charset=utf-8" } });
  }
  const bytes = await xlsxTemplate(ctx, definition, label);
  return new Response(new Uint8Array(bytes), {
    headers: { ...headers, "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
  });
}

// ---------------------------------------------------------------------------
// REST
// ---------------------------------------------------------------------------

/** A line fault as the API answers it: the column's header and the message in the caller's language. */
export function translatedLineErrors(errors: DataJobLineError[], locale: Locale) {
  const t = getT(locale) as unknown as (key: string, params?: Record<string, unknown>) => string;
  return errors.map((e) => {
    const column = t(lineErrorLabel(e));
    const message = e.type === 0 && !e.message ? t("imports:errors.missingColumn", { line: e.line, column }) : t(e.message ?? `imports:messageType.${e.type}`, { other: e.other });
    return { line: e.line, column: e.column, columnName: column, type: e.type, message };
  });
}

/** An import job as the API answers it, its errors translated. */
export function importJobJson(job: ImportJobView, locale: Locale) {
  const t = getT(locale) as unknown as (key: string) => string;
  return { ...job, errorMessage: job.errorMessage ? t(job.errorMessage) : null, errors: translatedLineErrors(job.errors, locale) };
}

/** The REST answer to a refused import file: its faults, translated, with the SPEC's error code. */
export function importApiError(error: unknown, locale: Locale): Response | null {
  const t = getT(locale) as unknown as (key: string, params?: Record<string, unknown>) => string;
  if (error instanceof ImportRowsError) {
    return Response.json(
      {
        code: "INVALID_TEMPLATE_DATA",
        errorCode: 2,
        message: t("imports:errors.invalidTemplate"),
        messageKey: "imports:errors.invalidTemplate",
        total: error.preview.total,
        errors: translatedLineErrors(error.preview.errors, locale),
      },
      { status: 400 },
    );
  }
  if (error instanceof ImportFileError) {
    const status = error.code === "FILE_TOO_LARGE" ? 413 : 400;
    const body = { code: error.code, errorCode: error.errorCode, message: t(error.messageKey, error.params), messageKey: error.messageKey };
    return Response.json(body, { status });
  }
  return null;
}


/**
 * POST /api/imports: the caller's permission first (before the body is read), then the multipart body
 * (`type`: the number of SPEC.md section 3's import type or its template's name, `file`), then the
 * import: 202 with the job, or the file's faults.
 */
export async function startImportFromApi(request: Request, ctx: FilesContext, locale: Locale): Promise<Response> {
  if (!can(ctx.actor, "import", "data")) throw new ForbiddenError();
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    throw new DomainError("UNSUPPORTED_MEDIA_TYPE", "errors.unsupportedMediaType", 415);
  }
  const formData = await readFormData(request, importMaxBytes(ctx));
  const input = await fileInput(formData);
  const bySlug = typeof input.type === "string" ? importTypeBySlug(input.type) : undefined;
  try {
    const job = await startImport(ctx, { ...input, type: bySlug ? bySlug.type : input.type });
    return Response.json(importJobJson(await getImportJob(ctx, job.id), locale), { status: 202, headers: { Location: `/api/imports/${job.id}` } });
  } catch (error) {
    const answer = importApiError(error, locale);
    if (answer) return answer;
    throw error;
  }
}
