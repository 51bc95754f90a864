import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, useUrlDialog } from "~/components/ui/dialog";

/** Loaded when the dialog opens: most pages never show it (JavaScript per page). */
const ReportForm = lazy(() => import("./report-form").then((module) => ({ default: module.ReportForm })));

/**
 * The "report a bug or suggestion" dialog, opened by `?dialog=report` on any signed-in page (the
 * menu's Report entry links there), so it opens without JavaScript. It posts to /report-issue, which
 * comes back to this page without the dialog and with a "Report sent" toast.
 */
export function ReportDialog() {
  const { t } = useTranslation("shell");
  const dialog = useUrlDialog("report");
  return (
    <Dialog
      open={dialog.open}
      closeTo={dialog.closeTo}
      title={t("report.title")}
      description={t("report.description")}
      closeLabel={t("report.close")}
      data-report-dialog
    >
      <Suspense fallback={<p className="text-sm text-muted-foreground">{t("report.loading")}</p>}>
        <ReportForm mode="fetcher" redirectTo={dialog.closeTo} cancelTo={dialog.closeTo} />
      </Suspense>
    </Dialog>
  );
}
