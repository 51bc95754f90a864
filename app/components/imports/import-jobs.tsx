import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { DataJobStatus } from "~/db/enums";
import { useDates } from "~/lib/use-dates";
import type { ImportJobView } from "~/modules/imports/queries.server";
import { LineErrors } from "./line-errors";

/** How often the tab reads its imports again while one waits or runs (with JavaScript). */
const POLL_MS = 2000;

const active = (status: number) => status === DataJobStatus.QUEUED || status === DataJobStatus.RUNNING;

/**
 * The latest imports: type, file, who, when, status, progress (a progress bar), lines, and the faults
 * of a failed one. While one waits or runs the page reads them again every 2 s when JavaScript runs;
 * without it, the "Refresh" link above does.
 */
export function ImportJobs({ jobs }: { jobs: ImportJobView[] }) {
  const { t } = useTranslation("imports");
  const dates = useDates();
  const revalidator = useRevalidator();
  const running = jobs.some((j) => active(j.status));
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, revalidator]);

  return (
    <section className="grid gap-3" aria-labelledby="import-history">
      <h2 id="import-history" className="text-lg font-semibold">
        {t("history")}
      </h2>
      {jobs.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("noHistory")}</p>
      ) : (
        <Table aria-labelledby="import-history">
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{t("jobs.type")}</TableHead>
              <TableHead scope="col">{t("jobs.file")}</TableHead>
              <TableHead scope="col">{t("jobs.requestedBy")}</TableHead>
              <TableHead scope="col">{t("jobs.created")}</TableHead>
              <TableHead scope="col">{t("jobs.status")}</TableHead>
              <TableHead scope="col">{t("jobs.progress")}</TableHead>
              <TableHead scope="col">{t("jobs.rows")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {jobs.map((job) => (
              <TableRow key={job.id} data-import-id={job.id}>
                <TableCell>{t(`types.${job.importType}`)}</TableCell>
                <TableCell className="max-w-48 truncate">{job.fileName ?? ""}</TableCell>
                <TableCell>{job.requestedBy ?? ""}</TableCell>
                <TableCell>
                  <time dateTime={job.createdAt}>{dates.dateTime(job.createdAt)}</time>
                </TableCell>
                <TableCell>
                  {t(`status.${job.status}`)}
                  {job.status === DataJobStatus.FAILED && job.errorMessage && job.errors.length === 0 ? (
                    <span className="block text-xs text-destructive">{t(job.errorMessage)}</span>
                  ) : null}
                </TableCell>
                <TableCell>
                  <progress max={100} value={job.progress} aria-label={`${t("jobs.progress")} ${job.id}`} className="h-2 w-24" />
                  <span className="ml-2 text-xs">{job.progress}%</span>
                </TableCell>
                <TableCell>{t("rowsDone", { processed: job.processedRows, total: job.totalRows ?? 0 })}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {jobs
        .filter((job) => job.status === DataJobStatus.FAILED && job.errors.length > 0)
        .slice(0, 1)
        .map((job) => (
          <details key={job.id} className="rounded-lg border p-4" open>
            <summary className="cursor-pointer font-medium">
              {t(`types.${job.importType}`)} · {job.fileName ?? ""}: {t("errorsTitle", { count: job.errors.length })}
            </summary>
            <div className="mt-3">
              <LineErrors errors={job.errors} caption={t("jobs.errors")} />
            </div>
          </details>
        ))}
    </section>
  );
}
