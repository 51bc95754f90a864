import { Link } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { SERVICE_LEVELS } from "~/components/service-levels/paths";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { ServiceLevelFigures, ServiceLevelRow, ServiceLevelSide } from "~/modules/dashboard/service-levels.server";
import { durationParts } from "~/modules/service-levels/due";
import { useFigureFormat } from "./dashboard-tables";

/** The section's id, for links to it. */
const ANCHOR = "service-levels";

const num = "text-right tabular-nums";
const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** "3 h 20 min", "1 d 2 h", "45 min" in the page's language (the incident view's words), or "–". */
export function useDuration() {
  const { t } = useTranslation("dashboard");
  return (minutes: number | null) => {
    if (minutes === null) return t("noValue");
    const parts = durationParts(minutes);
    return t(`serviceLevels:duration.${parts.key}`, parts);
  };
}

/**
 * The dashboard's "Service levels" (issue 62): per month and facility, the share of incidents that met
 * each target and the median and 90th percentile times (`getServiceLevelFigures`), each month's total
 * first, the whole period last. An entity without targets sees why there is nothing, with the way to the
 * settings for an administrator; a period without such incidents says so. A server-rendered table that
 * scrolls sideways in its named region on a phone.
 */
export function ServiceLevels({ figures }: { figures: ServiceLevelFigures }) {
  const { t } = useTranslation("dashboard");
  const f = useFigureFormat();
  const duration = useDuration();
  const id = useId();
  const caption = t("serviceLevels.caption");
  const met = (side: ServiceLevelSide) =>
    side.share === null ? (
      t("noValue")
    ) : (
      <>
        {f.share(side.share)}
        <span className="block text-xs text-muted-foreground">
          {t("serviceLevels.metOf", {
            met: f.int(side.met),
            total: f.int(side.counted),
          })}
        </span>
      </>
    );
  const month = (row: ServiceLevelRow) => (row.month === null ? t("serviceLevels.period") : f.month(row.month));
  const facility = (row: ServiceLevelRow) =>
    row.scope !== "facility" ? t("serviceLevels.allFacilities") : row.facilityName === null ? t("serviceLevels.noFacility") : row.facilityName;

  return (
    <section id={ANCHOR} aria-labelledby={id} className="grid min-w-0 content-start gap-2 rounded-md border bg-background p-4 print:break-inside-avoid print:border-0 print:p-0">
      <h2 id={id} className="text-lg font-semibold">
        {t("serviceLevels.title")}
      </h2>
      {figures.rows.length === 0 && !figures.hasTargets ? (
        <div className="grid gap-1 text-sm" data-empty="no-targets">
          <p className="text-muted-foreground">{t("serviceLevels.noTargets")}</p>
          {figures.canSetTargets ? (
            <p className="print:hidden">
              <Link to={SERVICE_LEVELS} className={linkClass}>
                {t("serviceLevels.setTargets")}
              </Link>
            </p>
          ) : (
            <p className="text-muted-foreground">{t("serviceLevels.askAdministrator")}</p>
          )}
        </div>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">{t("serviceLevels.intro")}</p>
          {figures.rows.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-empty="no-incidents">
              {t("serviceLevels.empty")}
            </p>
          ) : (
            <Table scrollLabel={caption} wrapperClassName="scroll-shadows">
              <TableCaption className="sr-only">{caption}</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("serviceLevels.month")}</TableHead>
                  <TableHead>{t("serviceLevels.facility")}</TableHead>
                  {(["response", "resolution"] as const).flatMap((side) =>
                    (["met", "median", "p90"] as const).map((figure) => (
                      // On a phone a heading may take two lines, so that the columns stay narrow.
                      <TableHead key={`${side}-${figure}`} className={`${num} max-sm:whitespace-normal`}>
                        {t(`serviceLevels.columns.${side}.${figure}`)}
                      </TableHead>
                    ))
                  )}
                </TableRow>
              </TableHeader>
              <TableBody>
                {figures.rows.map((row) => (
                  <TableRow
                    key={`${row.scope}-${row.month ?? ""}-${row.facilityId ?? ""}`}
                    className={row.scope === "facility" ? undefined : "font-semibold"}
                    data-scope={row.scope}
                    data-month={row.month ?? "period"}
                    data-facility={row.scope === "facility" ? row.facilityId ?? "none" : "all"}
                  >
                    <TableCell>{month(row)}</TableCell>
                    <TableHead scope="row" className={`whitespace-normal text-foreground${row.scope === "facility" ? " font-medium" : ""}`}>
                      {facility(row)}
                    </TableHead>
                    {[row.response, row.resolution].flatMap((side, i) => [
                      <TableCell key={`${i}-met`} className={num}>
                        {met(side)}
                      </TableCell>,
                      <TableCell key={`${i}-median`} className={num}>
                        {duration(side.medianMinutes)}
                      </TableCell>,
                      <TableCell key={`${i}-p90`} className={num}>
                        {duration(side.p90Minutes)}
                      </TableCell>,
                    ])}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </>
      )}
    </section>
  );
}
