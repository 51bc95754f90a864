import type { LoaderFunctionArgs } from "@remix-run/node";
import { serviceContext } from "~/http/route-context.server";
import { localeByUserLanguage } from "~/i18n";
import { detectLocale, getT } from "~/i18n.server";
import { isCalendarDay } from "~/lib/dates";
import { isDomainError } from "~/lib/errors";
import { requireUser } from "~/modules/auth/guard.server";
import { inspectionReportFileName, renderInspectionReport } from "~/modules/maintenance/inspection-report.server";

/**
 * GET /view-task/{id}/{date}/inspection.pdf ("Print the inspection report" on the task's day): the
 * printed inspection report of planned maintenance {id}'s tasks of {date} the user reaches (A4 PDF, in
 * the user's language), inline. `?task=` keeps one task of them; `?to=` (a later day, at most a year on)
 * makes it the report of the plan over the period from {date} to that day. A plan or day without a task
 * the user reaches, or anything unreadable, is 404 "Planned maintenance not found".
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const profile = context.auth.shell?.profile;
  const locale = await detectLocale(request, profile ? localeByUserLanguage[profile.language] : null);
  const ctx = { ...(await serviceContext({ request, context }, user)), locale };
  const notFound = () =>
    new Response(getT(locale, "tasks")("notFound.plannedMaintenance"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  const search = new URL(request.url).searchParams;
  const id = params.id && /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const from = params.date ?? "";
  const to = search.get("to") || from;
  const task = search.get("task");
  const taskId = task && /^\d{1,9}$/.test(task) ? Number(task) : null;
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (!id || !isCalendarDay(from) || !isCalendarDay(to) || !(span >= 0 && span <= 366) || (task !== null && taskId === null)) return notFound();
  const scope = { plannedMaintenanceId: id, from, to, taskId };
  try {
    const pdf = await renderInspectionReport(ctx, scope);
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Length": String(pdf.byteLength),
        "Content-Disposition": `inline; filename="${inspectionReportFileName(scope)}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return notFound();
    throw error;
  }
}
