import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { FilterSelect } from "~/components/lists/list-toolbar";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { screenLoader } from "~/http/screen.server";
import { endOfDay, isCalendarDay, startOfDay } from "~/lib/dates";
import { intParam } from "~/lib/list-query";
import { useDates } from "~/lib/use-dates";
import { auditFilterOptions, listAuditRows } from "~/modules/administration/queries.server";
import { auditActionLabel, isKnownAuditAction } from "~/modules/administration/audit-labels";

/**
 * /administration/audit (decision 057): the entity's audit history, newest first, read-only, for
 * administrators only (the rows span the whole entity; a manager is sent to /forbidden). Filters by person
 * (`actorId`), kind of record (`recordType`) and period (`from`, `to`: calendar days in the entity's time
 * zone, both included) are a GET form; pages go back by keyset (`before`). A filter that names nothing
 * known is no filter.
 */
export const loader = screenLoader(async ({ ctx, url: { searchParams: params } }) => {
  const options = await auditFilterOptions(ctx);
  const actorId = intParam(params, "actorId");
  const recordType = params.get("recordType");
  const from = params.get("from");
  const to = params.get("to");
  const filters = {
    actorId: actorId && options.actors.some((a) => a.id === actorId) ? actorId : null,
    recordType: recordType && options.recordTypes.includes(recordType) ? recordType : null,
    from: isCalendarDay(from) ? from : null,
    to: isCalendarDay(to) ? to : null,
  };
  const rawBefore = params.get("before");
  const before = rawBefore && /^\d{1,15}$/.test(rawBefore) ? Number(rawBefore) : null;
  const page = await listAuditRows(
    ctx,
    {
      actorId: filters.actorId,
      recordType: filters.recordType,
      from: filters.from ? startOfDay(filters.from, ctx.timeZone) : null,
      to: filters.to ? endOfDay(filters.to, ctx.timeZone) : null,
    },
    { before },
  );
  return { page, filters, options, paged: before !== null };
});

/** The page's address with `before` set (or removed), the filters kept. */
function pageHref(location: { pathname: string; search: string }, before: number | null): string {
  const params = new URLSearchParams(location.search);
  if (before === null) params.delete("before");
  else params.set("before", String(before));
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}

export default function AdministrationAudit() {
  const { t } = useTranslation("administration");
  const { page, filters, options, paged } = useLoaderData<typeof loader>();
  const dates = useDates();
  const location = useLocation();
  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <BackLink to="/administration">{t("audit.back")}</BackLink>
        <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.administration-audit")}</h1>
        <p className="text-sm text-muted-foreground">{t("audit.intro")}</p>
      </div>

      <Form method="get" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
        <FilterSelect
          name="actorId"
          label={t("audit.filters.actor")}
          value={filters.actorId}
          allLabel={t("audit.filters.allActors")}
          widthClassName=""
          options={options.actors.map((a) => ({ value: a.id, label: a.name }))}
        />
        <FilterSelect
          name="recordType"
          label={t("audit.filters.kind")}
          value={filters.recordType}
          allLabel={t("audit.filters.allKinds")}
          widthClassName=""
          options={options.recordTypes.map((kind) => ({ value: kind, label: t(`audit.kinds.${kind}`, { defaultValue: kind }) }))}
        />
        <div className="grid gap-1.5">
          <Label htmlFor="audit-from">{t("audit.filters.from")}</Label>
          <Input id="audit-from" type="date" name="from" defaultValue={filters.from ?? ""} key={`from-${filters.from}`} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-to">{t("audit.filters.to")}</Label>
          <Input id="audit-to" type="date" name="to" defaultValue={filters.to ?? ""} key={`to-${filters.to}`} />
        </div>
        <div className="flex gap-2">
          <Button type="submit" className="flex-1 lg:flex-none">
            {t("common:list.filter")}
          </Button>
          <Link to={location.pathname} className={buttonVariants({ variant: "outline" })}>
            {t("common:list.clear")}
          </Link>
        </div>
      </Form>

      {page.rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("audit.empty")}</p>
      ) : (
        <Table className="stack-table" aria-label={t("screens.administration-audit", { ns: "common" })}>
          <TableHeader>
            <TableRow>
              <TableHead>{t("audit.columns.when")}</TableHead>
              <TableHead>{t("audit.columns.who")}</TableHead>
              <TableHead>{t("audit.columns.what")}</TableHead>
              <TableHead>{t("audit.columns.record")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {page.rows.map((row) => (
              <TableRow key={row.id} data-testid="audit-row">
                <TableCell className="whitespace-nowrap align-top">{dates.dateTime(row.createdAt)}</TableCell>
                <TableCell className="align-top">{row.actorName ?? (row.actorId === null ? t("audit.system") : t("audit.formerUser", { id: row.actorId }))}</TableCell>
                <TableCell className="align-top">
                  {/* The action's label; a code the app does not know reads "Other action", its code beside. */}
                  <div>{auditActionLabel(t, row.action)}</div>
                  {isKnownAuditAction(row.action) ? null : (
                    <div lang="en" className="font-mono text-xs text-muted-foreground">
                      {row.action}
                    </div>
                  )}
                </TableCell>
                <TableCell className="align-top">
                  {t(`audit.kinds.${row.recordType}`, { defaultValue: row.recordType })} #{row.recordId}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <nav aria-label={t("audit.pages")} className="flex flex-wrap gap-2">
        {paged ? (
          <Link to={pageHref(location, null)} className={buttonVariants({ variant: "outline" })}>
            {t("audit.newest")}
          </Link>
        ) : null}
        {page.nextBefore ? (
          <Link to={pageHref(location, page.nextBefore)} rel="next" className={buttonVariants({ variant: "outline" })}>
            {t("audit.older")}
          </Link>
        ) : null}
      </nav>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
