import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { WORK_SECTION, WORK_TASK_PARAM } from "~/lib/incident-view";
import type { TaskDayWork } from "~/modules/time-costs/queries.server";
import { useAmounts, useDuration } from "./incident-work";

const NUMBER = "whitespace-nowrap text-right tabular-nums";

/**
 * The work of a planned maintenance's day over its locations (one task each), on the task view: each
 * location's time, material and total cost, and all of them together. A location's name links to its
 * own "Time and materials" section (`?work=<taskId>`), a plain link. A total left out for the viewer
 * (a technician while a colleague's time counts in it, decision 065) is an empty cell.
 */
export function TaskDayWorkTable({ locations, work, shownTaskId }: { locations: { taskId: number; place: string }[]; work: TaskDayWork; shownTaskId: number }) {
  const { t } = useTranslation(["tasks", "timeCosts"]);
  const duration = useDuration();
  const { money } = useAmounts(work.currency);
  const cells = (totals: TaskDayWork["day"]) => (
    <>
      <TableCell className={NUMBER}>{duration(totals.minutes)}</TableCell>
      <TableCell className={NUMBER}>{money(totals.materials)}</TableCell>
      <TableCell className={NUMBER}>{totals.total === null ? "" : money(totals.total)}</TableCell>
    </>
  );
  return (
    <section aria-labelledby="task-day-work" className="grid gap-2">
      <h2 id="task-day-work" className="text-lg font-semibold">
        {t("view.workByLocation")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("view.workByLocationIntro")}</p>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">{t("view.location")}</TableHead>
            <TableHead scope="col" className="text-right">
              {t("timeCosts:time.title")}
            </TableHead>
            <TableHead scope="col" className="text-right">
              {t("timeCosts:totals.materials")}
            </TableHead>
            <TableHead scope="col" className="text-right">
              {t("timeCosts:totals.total")}
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {locations.map(({ taskId, place }) => {
            const totals = work.byTask[taskId];
            if (!totals) return null;
            return (
              <TableRow key={taskId} data-testid={`day-work-${taskId}`}>
                <TableHead scope="row" className="font-normal">
                  <Link
                    to={`?${WORK_TASK_PARAM}=${taskId}#${WORK_SECTION}`}
                    preventScrollReset
                    className="underline-offset-4 hover:underline"
                    aria-current={taskId === shownTaskId ? "true" : undefined}
                  >
                    {place}
                  </Link>
                </TableHead>
                {cells(totals)}
              </TableRow>
            );
          })}
        </TableBody>
        <tfoot className="border-t bg-muted/40 font-semibold">
          <TableRow data-testid="day-work-all">
            <TableHead scope="row">{t("view.allLocations")}</TableHead>
            {cells(work.day)}
          </TableRow>
        </tfoot>
      </Table>
    </section>
  );
}
