import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { readReportForm, reportControlErrors, reportFailure, type ReportFormFailure, reportServices, reportWrite } from "~/http/report-form.server";
import type { IntentArgs } from "~/http/screen.server";
import { toastHeader } from "~/http/toast.server";
import { ForbiddenError, isDomainError } from "~/lib/errors";
import { getReportPlace } from "~/modules/occupier-reports/place.server";
import { reportIncident } from "~/modules/occupier-reports/service.server";

/**
 * Staff reporting from the room view (/view-room/{id}?dialog=report-incident): the types of
 * the room's report identifier with their checklists for the dialog, and its post (the room view's
 * intent `report`), which calls the occupiers' verb `reportIncident` as the signed-in user (it checks
 * their reach) and goes to the incident with a toast.
 */
export async function staffReportTypes(context: AppLoadContext, code: string | null, locale: string) {
  if (!code) return null;
  try {
    const place = await getReportPlace({ db: context.runtime.database.db }, code, locale);
    return place.incidentTypes.map(({ id, name, defaultPriority, reporterMayChangePriority, checklist }) => ({ id, name, defaultPriority, reporterMayChangePriority, checklist }));
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return null;
    throw error;
  }
}

export type StaffReportActionData = { intent: "report"; failure: ReportFormFailure | null };

/** The report dialog's post on the room (the subject, its reach checked): `code` is its report identifier. */
export async function staffReportIntent(args: IntentArgs<{ reportIdentifier: string | null }>) {
  const { ctx, formData } = args;
  const code = args.subject.reportIdentifier;
  const fail = (failure: ReportFormFailure | null, status: number) => data<StaffReportActionData>({ intent: "report", failure }, { status });
  const { values, photos } = await readReportForm(formData);
  if (!code) return fail({ fieldErrors: {}, formErrors: ["report:notFound.title"], values, photosLost: photos.length > 0 }, 404);
  const control = reportControlErrors(formData);
  if (control) return fail({ fieldErrors: control, formErrors: [], values, photosLost: photos.length > 0 }, 400);
  try {
    const result = await reportIncident(reportServices(args), code, reportWrite(values, photos), { actor: ctx.actor, locale: ctx.locale });
    const toast = await toastHeader({ type: "success", key: result.outcome === "folded" ? "report:staff.folded" : "report:staff.created", params: { shortId: result.shortId } });
    return redirect(`/incident/${result.incidentId}`, { headers: { "Set-Cookie": toast } });
  } catch (error) {
    if (error instanceof ForbiddenError) throw redirect("/forbidden");
    if (isDomainError(error) && error.status === 404) {
      return fail({ fieldErrors: {}, formErrors: [error.messageKey], values, photosLost: photos.length > 0 }, 404);
    }
    const failure = reportFailure(error, values, photos);
    return failure ? fail(failure, 400) : fail({ fieldErrors: {}, formErrors: ["common:errors.couldNotSave"], values, photosLost: photos.length > 0 }, 500);
  }
}
