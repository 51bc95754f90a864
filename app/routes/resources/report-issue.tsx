import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/shell/icons";
import { ReportForm } from "~/components/shell/report-form";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { isDomainError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { toastHeader } from "~/http/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { ReportFormSchema } from "~/modules/reports/schema";
import { submitReport } from "~/modules/reports/service.server";
import { serviceContext } from "~/http/route-context.server";
import { formDataOf } from "~/http/form-action.server";

/**
 * POST /report-issue: "report a bug or suggestion" (SPEC.md sections 2, 5 and 8). The dialog of the
 * signed-in layout (`?dialog=report`) posts here. On success: back to the page it came from, with a
 * "Report sent" toast. On a validation error: 400 with the errors, shown in the dialog (JavaScript
 * on) or on this page (JavaScript off). On any other failure: back with a failure toast.
 * GET /report-issue shows the same form as a page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const url = new URL(request.url);
  return { redirectTo: safeRedirectPath(url.searchParams.get("redirectTo")) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const rt = context.runtime;
  // Refuse an upload far over the limit before reading it into memory.
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > rt.files.maxBytes + 256 * 1024) {
    const back = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
    return redirect(back, { headers: { "Set-Cookie": await toastHeader({ type: "error", key: "errors.file.tooLarge" }) } });
  }
  const formData = await formDataOf(request);
  const back = safeRedirectPath(formData.get("redirectTo"));
  const submission = parseWithZod(formData, { schema: ReportFormSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["attachment"] }), { status: 400 });
  }
  const { type, message, attachment } = submission.value;
  try {
    await submitReport(await serviceContext({ request, context }, user), {
      type,
      message,
      pageUrl: back,
      attachment:
        attachment && attachment.size > 0
          ? { bytes: new Uint8Array(await attachment.arrayBuffer()), originalName: attachment.name }
          : undefined,
      settings: { bugReportEmail: rt.config.BUG_REPORT_EMAIL, appUrl: rt.config.APP_URL },
    });
  } catch (error) {
    if (isDomainError(error) && error.fieldErrors && Object.keys(error.fieldErrors).length) {
      return data(submission.reply({ fieldErrors: error.fieldErrors, hideFields: ["attachment"] }), { status: 400 });
    }
    logger().error({ err: error }, "report could not be sent");
    return redirect(back, { headers: { "Set-Cookie": await toastHeader({ type: "error", key: "shell:report.failed" }) } });
  }
  return redirect(back, { headers: { "Set-Cookie": await toastHeader({ type: "success", key: "shell:report.sent" }) } });
}

export default function ReportIssuePage() {
  const { t } = useTranslation("shell");
  const { redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const back = safeRedirectPath(lastResult?.initialValue?.redirectTo ?? redirectTo);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-lg">
        <CardHeader>
          <div className="flex items-center gap-3">
            <span aria-hidden="true" className="flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary">
              <Icon name="report" />
            </span>
            <CardTitle as="h1" className="text-xl">
              {t("report.title")}
            </CardTitle>
          </div>
          <p className="text-sm text-muted-foreground">{t("report.description")}</p>
        </CardHeader>
        <CardContent>
          <ReportForm mode="page" lastResult={lastResult} redirectTo={back} cancelTo={back} />
        </CardContent>
      </Card>
    </main>
  );
}
