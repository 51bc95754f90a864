import { useTranslation } from "react-i18next";
import { Dialog, useUrlDialog } from "~/components/ui/dialog";
import { ReportForm } from "./report-form";

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
      <ReportForm mode="fetcher" redirectTo={dialog.closeTo} cancelTo={dialog.closeTo} />
    </Dialog>
  );
}
