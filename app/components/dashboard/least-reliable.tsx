import { Link } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useHours } from "~/components/equipment/use-hours";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { LeastReliableRow } from "~/modules/reliability/queries.server";
import { useSectionToggle } from "./dashboard-tables";

/** The dashboard's query parameter that asks for the table (`?reliability=1`). */
export const LEAST_RELIABLE_PARAM = "reliability";
/** The table's id: the links that show and hide it come back to it. */
const ANCHOR = "least-reliable-equipment";

const num = "text-right tabular-nums";
const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/**
 * The dashboard's "least reliable equipment" (issue 62): the equipment items with the most failures over
 * the last twelve months within the viewer's reach, whatever the dashboard's filters, each linking to its
 * history, with its room, its mean time between failures and its median time to repair. `rows` null: not
 * asked for; a link (the page's address with `reliability=1`) asks for it.
 */
export function LeastReliableEquipment({ rows }: { rows: LeastReliableRow[] | null }) {
  const { t } = useTranslation("dashboard");
  const toggleHref = useSectionToggle(LEAST_RELIABLE_PARAM, rows !== null, ANCHOR);
  const hours = useHours();
  const id = useId();
  const caption = t("leastReliable.caption");
  return (
    <section id={ANCHOR} aria-labelledby={id} className="grid min-w-0 content-start gap-2 rounded-md border bg-background p-4 print:break-inside-avoid print:border-0 print:p-0">
      <h2 id={id} className="text-lg font-semibold">
        {t("leastReliable.title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("leastReliable.intro")}</p>
      <p className="text-sm print:hidden">
        <Link to={toggleHref} preventScrollReset className={linkClass}>
          {rows ? t("leastReliable.hide") : t("leastReliable.show")}
        </Link>
      </p>
      {rows === null ? null : rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("leastReliable.empty")}</p>
      ) : (
        <Table scrollLabel={caption} wrapperClassName="scroll-shadows">
          <TableCaption className="sr-only">{caption}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t("leastReliable.columns.equipment")}</TableHead>
              <TableHead>{t("leastReliable.columns.room")}</TableHead>
              <TableHead className={`${num} max-sm:whitespace-normal`}>{t("leastReliable.columns.failures")}</TableHead>
              <TableHead className={`${num} max-sm:whitespace-normal`}>{t("leastReliable.columns.mtbf")}</TableHead>
              <TableHead className={`${num} max-sm:whitespace-normal`}>{t("leastReliable.columns.medianRepair")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} data-equipment-item={row.id}>
                <TableHead scope="row" className="whitespace-normal font-medium text-foreground">
                  <Link to={`/view-equipment/${row.id}`} className={linkClass}>
                    {[row.equipmentName, row.internalReference].filter(Boolean).join(" · ")}
                  </Link>
                </TableHead>
                <TableCell className="whitespace-normal">{row.roomName}</TableCell>
                <TableCell className={num}>{row.failures}</TableCell>
                <TableCell className={num}>{hours(row.mtbfHours)}</TableCell>
                <TableCell className={num}>{hours(row.medianRepairHours)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
