import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdfResponse } from "~/http/printing.server";
import { userPdf } from "~/http/user-pdf.server";
import { isCalendarDay } from "~/lib/dates";
import { inspectionReportFileName, renderInspectionReport } from "~/modules/maintenance/inspection-report.server";

/**
 * GET /view-task/{id}/{date}/inspection.pdf ("Print the inspection report" on the task's day): the
 * printed inspection report of planned maintenance {id}'s tasks of {date} the user reaches (A4 PDF, in
 * the user's language), inline. `?task=` keeps one task of them; `?to=` (a later day, at most a year on)
 * makes it the report of the plan over the period from {date} to that day. A plan or day without a task
 * the user reaches, or anything unreadable, is 404 "Planned maintenance not found".
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const id = params.id && /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const from = params.date ?? "";
  const to = search.get("to") || from;
  const task = search.get("task");
  const taskId = task && /^\d{1,9}$/.test(task) ? Number(task) : null;
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  const readable = id > 0 && isCalendarDay(from) && isCalendarDay(to) && span >= 0 && span <= 366 && (task === null || taskId !== null);
  const scope = { plannedMaintenanceId: id, from, to, taskId };
  return userPdf({ request, context }, "tasks:notFound.plannedMaintenance", async (ctx) =>
    readable ? pdfResponse(await renderInspectionReport(ctx, scope), inspectionReportFileName(scope), "inline") : null,
  );
}
