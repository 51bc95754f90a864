import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms/form-parts";
import { buttonVariants } from "~/components/ui/button";
import { Dialog, DialogFooter, DialogTrigger, useUrlDialog } from "~/components/ui/dialog";
import { ReportFields, type ReportFieldValues, ReportFormErrors, type ReportTypeView } from "./report-fields";

/**
 * Staff report an incident from the room view, as themselves, with the verb the
 * occupiers' page uses: a URL dialog (`?dialog=report-incident`, then `&type=<id>` once a type is
 * chosen; the shell's `?dialog=report` is the bug report), so it also works as a full page without
 * JavaScript. The form posts `intent=report` to the room view.
 */
export const STAFF_REPORT_DIALOG = "report-incident";
export const STAFF_REPORT_INTENT = "report";

export interface StaffReportFailure {
  fieldErrors: Record<string, string[]>;
  formErrors: string[];
  values: ReportFieldValues;
  photosLost: boolean;
}

export function StaffReportTrigger() {
  const { t } = useTranslation("report");
  const dialog = useUrlDialog(STAFF_REPORT_DIALOG);
  return (
    <DialogTrigger to={dialog.openTo} variant="outline" className="w-full sm:w-auto">
      {t("staff.action")}
    </DialogTrigger>
  );
}

export function StaffReportDialog({
  roomName,
  types,
  typeId,
  failure,
}: {
  roomName: string;
  types: ReportTypeView[] | null;
  typeId: number | null;
  failure?: StaffReportFailure | null;
}) {
  const { t } = useTranslation("report");
  const location = useLocation();
  const dialog = useUrlDialog(STAFF_REPORT_DIALOG);
  const closeParams = new URLSearchParams(location.search);
  closeParams.delete("dialog");
  closeParams.delete("type");
  const closeTo = closeParams.size ? `${location.pathname}?${closeParams.toString()}` : location.pathname;
  const type = typeId === null ? null : (types?.find((x) => x.id === typeId) ?? null);
  const typeHref = (id: number) => {
    const params = new URLSearchParams(location.search);
    params.set("dialog", STAFF_REPORT_DIALOG);
    params.set("type", String(id));
    return `${location.pathname}?${params.toString()}`;
  };
  return (
    <Dialog open={dialog.open && types !== null} closeTo={closeTo} title={type ? `${t("staff.title")}: ${type.name}` : t("staff.title")} description={roomName} closeLabel={t("common:actions.close")} size="lg">
      {type ? (
        <Form method="post" encType="multipart/form-data" action={`${location.pathname}${location.search}`} className="grid gap-5">
          <input type="hidden" name="intent" value={STAFF_REPORT_INTENT} />
          {failure ? <ReportFormErrors errors={failure.formErrors} /> : null}
          <ReportFields type={type} values={failure?.values} errors={failure?.fieldErrors} photosLost={failure?.photosLost} withEmail={false} idPrefix="staff-report" />
          <DialogFooter>
            <Link to={closeTo} className={buttonVariants({ variant: "outline" })}>
              {t("staff.cancel")}
            </Link>
            <SubmitButton intent={STAFF_REPORT_INTENT}>{t("staff.submit")}</SubmitButton>
          </DialogFooter>
        </Form>
      ) : (
        <div className="grid gap-3">
          <p className="text-sm font-medium">{t("staff.chooseType")}</p>
          {types?.length ? (
            <ul className="grid gap-2">
              {types.map((x) => (
                <li key={x.id}>
                  <Link to={typeHref(x.id)} className={`${buttonVariants({ variant: "outline" })} h-auto min-h-11 w-full justify-between whitespace-normal py-2 text-left`}>
                    <span>{x.name}</span>
                    <span aria-hidden="true">→</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">{t("staff.noTypes")}</p>
          )}
        </div>
      )}
    </Dialog>
  );
}
