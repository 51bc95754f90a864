import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { DataTabs } from "~/components/data/data-tabs";
import { ExportForm, ExportTypeChooser, START_EXPORT_INTENT } from "~/components/exports/export-form";
import { ExportsTable } from "~/components/exports/exports-table";
import { useResultFor } from "~/components/forms/zod-form";
import { buttonVariants } from "~/components/ui/button";
import { assertCan } from "~/core/actor";
import { DataJobStatus } from "~/db/enums";
import { submitForm } from "~/http/form-action.server";
import { screenAction, screenLoader } from "~/http/screen.server";
import { listCategoryOptions } from "~/modules/equipment/queries.server";
import { EXPORT_FILTERS, EXPORT_TYPE_SLUGS, exportTypeOf, type ExportTypeSlug } from "~/modules/exports/constants";
import { StartExportSchema } from "~/modules/exports/schema";
import { listExports } from "~/modules/exports/queries.server";
import { startExport } from "~/modules/exports/service.server";
import { listFacilityOptions } from "~/modules/facilities/queries.server";
import { listMaintenanceTypeOptions } from "~/modules/maintenance/queries.server";

/**
 * /import-data/export: the export tab of Import/Export Data (issue 49, decision 055). The type comes
 * from the address (`?type=incidents`), so its filters show without JavaScript; the form starts the
 * export ("Export in progress") and the list below shows the recent exports with their progress,
 * expiry and download link (refreshed every second while one runs, when JavaScript is on).
 */
function typeOf(url: URL): ExportTypeSlug {
  const named = url.searchParams.get("type");
  return named !== null && exportTypeOf(named) !== null ? (named as ExportTypeSlug) : "incidents";
}

export const loader = screenLoader(async ({ ctx, url }) => {
  assertCan(ctx.actor, "export", "data");
  const type = typeOf(url);
  const kinds = new Set(Object.values(EXPORT_FILTERS[type]));
  const [exports, facilities, categories, maintenanceTypes] = await Promise.all([
    listExports(ctx, { type: EXPORT_TYPE_SLUGS[type] }),
    kinds.has("facility") ? listFacilityOptions(ctx) : [],
    kinds.has("category") ? listCategoryOptions(ctx) : [],
    kinds.has("maintenanceType") ? listMaintenanceTypeOptions(ctx) : [],
  ]);
  return { type, exports, options: { facilities, categories, maintenanceTypes } };
});

export const action = screenAction({
  fallback: START_EXPORT_INTENT,
  intents: {
    [START_EXPORT_INTENT]: ({ ctx, formData }) => {
      const posted = formData.get("type");
      const type = typeof posted === "string" && exportTypeOf(posted) !== null ? posted : "incidents";
      return submitForm(formData, { intent: START_EXPORT_INTENT, schema: StartExportSchema, redirectTo: `/import-data/export?type=${type}`, toast: "exports:inProgress" }, (value) =>
        startExport(ctx, value),
      );
    },
  },
});

export default function ExportData() {
  const { t } = useTranslation("exports");
  const { type, exports, options } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  const revalidator = useRevalidator();
  const busy = exports.some((e) => e.status === DataJobStatus.QUEUED || e.status === DataJobStatus.RUNNING);
  // SPEC.md section 9: loading waits poll every 1000 ms.
  useEffect(() => {
    if (!busy) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1000);
    return () => window.clearInterval(timer);
  }, [busy, revalidator]);
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.import-data")}</h1>
      <DataTabs active="export" />
      <p className="text-sm text-muted-foreground">{t("intro")}</p>
      <ExportTypeChooser type={type} />
      <ExportForm key={type} type={type} options={options} lastResult={resultFor(START_EXPORT_INTENT)} />
      <section className="grid gap-3" aria-labelledby="recent-exports">
        <div className="flex items-center justify-between gap-3">
          <h2 id="recent-exports" className="text-lg font-semibold">
            {t("list.title")}
          </h2>
          <a href={`/import-data/export?type=${type}`} className={buttonVariants({ variant: "outline", size: "sm" })}>
            {t("list.refresh")}
          </a>
        </div>
        <ExportsTable items={exports} />
      </section>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
