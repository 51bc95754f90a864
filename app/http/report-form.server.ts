import { type AppLoadContext } from "@remix-run/node";
import { publicOrigin } from "~/http/public-url.server";
import { controlCharacterErrors, uploadsOf } from "~/http/form-action.server";
import { asDomainError, type FieldErrors } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import type { Upload } from "~/modules/files/uploads.server";
import type { ReportWrite } from "~/modules/occupier-reports/service.server";

/**
 * The report form's transport, shared by the occupier's page (/report/{identifier}) and
 * the staff's dialog on the room view: the fields it posts, read for `reportIncident`, and its errors
 * mapped beside the fields. Checklist answers are posted as `answers.<position>`.
 */
export interface ReportFormValues {
  incidentTypeId: string;
  description: string;
  email: string;
  priority: string;
  answers: Record<string, string>;
}

export interface ReportFormFailure {
  /** i18n keys by field name (`description`, `answers.2`, `photos`, `captcha`, ...). */
  fieldErrors: FieldErrors;
  /** i18n keys shown above the form. */
  formErrors: string[];
  /** What the occupier typed, to fill the form again (files cannot be kept). */
  values: ReportFormValues;
  /** Photos were chosen: the browser forgot them, the page asks to choose them again. */
  photosLost: boolean;
}

const text = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

export async function readReportForm(formData: FormData): Promise<{ values: ReportFormValues; photos: Upload[] }> {
  const answers: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    const match = /^answers\.(\d{1,3})$/.exec(key);
    if (match && typeof value === "string") answers[match[1]] = value;
  }
  return {
    values: {
      incidentTypeId: text(formData, "incidentTypeId"),
      description: text(formData, "description"),
      email: text(formData, "email"),
      priority: text(formData, "priority"),
      answers,
    },
    photos: await uploadsOf(formData, "photos"),
  };
}

/** The values as the service verb takes them. */
export function reportWrite(values: ReportFormValues, photos: Upload[]): ReportWrite {
  return {
    incidentTypeId: values.incidentTypeId,
    description: values.description,
    email: values.email.trim() === "" ? null : values.email,
    priority: values.priority === "" ? null : values.priority,
    answers: values.answers,
    photos,
  } as ReportWrite;
}

/** Control characters in any text field, as field errors (checked before the verb). */
export function reportControlErrors(formData: FormData): FieldErrors | null {
  return controlCharacterErrors(formData);
}

/**
 * A failed report: its field errors beside the fields, or a message above the form; null when the
 * error is not the reporter's doing (the caller answers "could not send").
 */
export function reportFailure(error: unknown, values: ReportFormValues, photos: Upload[]): ReportFormFailure | null {
  const known = asDomainError(error);
  if (!known || known.status !== 400) {
    logger().error({ err: error }, "report: could not save");
    return null;
  }
  const fieldErrors: FieldErrors = { ...known.fieldErrors };
  const formErrors = Object.keys(fieldErrors).length ? [] : [known.messageKey];
  return { fieldErrors, formErrors, values, photosLost: photos.length > 0 };
}

/** The services `reportIncident` takes, with links in mails pointing at the address occupiers use. */
export function reportServices({ request, context }: { request: Request; context: AppLoadContext }) {
  const { runtime, requestId } = context;
  return { ...runtime.services, files: runtime.files, requestId, appUrl: publicOrigin({ request, context }) };
}
