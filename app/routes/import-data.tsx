import { useActionData, useLoaderData } from "@remix-run/react";
import { ImportForm } from "~/components/imports/import-form";
import { ImportJobs } from "~/components/imports/import-jobs";
import { DataTabs } from "~/components/data/data-tabs";
import { importIntent, importLimitText, type ImportFormAnswer } from "~/http/imports.server";
import { screenAction, screenLoader } from "~/http/screen.server";
import { useTranslation } from "react-i18next";
import { hasFacility } from "~/modules/imports/check.server";
import { listImportJobs } from "~/modules/imports/queries.server";
import { importInProgress } from "~/modules/imports/service.server";

/**
 * /import-data, the import tab of Import/Export Data (SPEC.md section 2; the export tab is
 * /import-data/export): templates to download, a file to check (every fault of every line listed at
 * once) and to import in the background, and the latest imports with their progress and errors.
 */
export const loader = screenLoader(async ({ ctx }) => {
  const [jobs, inProgress, facility] = await Promise.all([listImportJobs(ctx), importInProgress(ctx), hasFacility(ctx)]);
  return { jobs, inProgress, hasFacility: facility, limit: importLimitText(ctx) };
});

export const action = screenAction({
  files: true,
  intents: {
    check: ({ ctx, formData }) => importIntent("check", ctx, formData),
    start: ({ ctx, formData }) => importIntent("start", ctx, formData),
  },
});

export default function ImportData() {
  const { t } = useTranslation("imports");
  const { jobs, inProgress, hasFacility: facility, limit } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as ImportFormAnswer | undefined;
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.import-data")}</h1>
      <DataTabs active="import" />
      <ImportForm answer={answer ?? null} inProgress={inProgress} hasFacility={facility} limit={limit} />
      <ImportJobs jobs={jobs} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
