import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReportFields, ReportFormErrors, useErrorMessages } from "~/components/report/report-fields";
import { Panel, PlaceSummary, ReportNotFound, ReportShell, RoomLinks, TypeChoices } from "~/components/report/report-page";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { Field, fieldControlProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import type { PublicPlace, ReportActionData, ReportPageData } from "~/http/report-page.server";
import { reportPageAction, reportPageLoader } from "~/http/report-page.server";
import { REPORT_HONEYPOT_FIELD } from "~/modules/occupier-reports/schema";
import type { ScriptsHandle } from "~/root";

/**
 * /report/{identifier}: the page a sticker's QR code opens, public, no account, no script.
 * The entity's logo, colours and greeting; where the sticker is; the room's links; the incident
 * types that apply, each a link to its form (`?type=<id>`); the thank-you after a report
 * (`?sent=<shortId>`); for a signed-in staff person who reaches the place, a link to the item's screen or
 * the room view (the sticker's staff side). The logic is in app/http/report-page.server.ts.
 */
export const handle: ScriptsHandle = { scripts: false };

/** The document gets the loader's and action's headers (no shared caching, Retry-After). */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const merged = new Headers(loaderHeaders);
  actionHeaders.forEach((value, key) => merged.set(key, value));
  return merged;
};

export const loader = (args: LoaderFunctionArgs) => reportPageLoader(args);
export const action = (args: ActionFunctionArgs) => reportPageAction(args);

export default function ReportPage() {
  const page = useLoaderData<typeof loader>() as ReportPageData;
  const result = useActionData<typeof action>() as ReportActionData | undefined;
  const { t } = useTranslation("report");
  if (page.state === "notFound" || result?.state === "notFound") return <ReportNotFound title={t("notFound.title")} text={t("notFound.text")} />;
  const { place } = page;
  const type = page.typeId === null ? null : (place.incidentTypes.find((x) => x.id === page.typeId) ?? null);
  const base = `/report/${encodeURIComponent(place.code)}`;
  const limitedMinutes = result?.state === "limited" ? result.minutes : page.limitedMinutes;
  return (
    <ReportShell branding={place.entity}>
      {page.sent ? (
        <ThankYou sent={page.sent} base={base} />
      ) : (
        <>
          {type ? (
            <ReportForm place={place} type={type} base={base} result={result} question={page.question} limitedMinutes={limitedMinutes} />
          ) : (
            <>
              <h1 className="sr-only">{t("page.title")}</h1>
              {place.entity.greeting ? <p className="whitespace-pre-line text-base">{place.entity.greeting}</p> : null}
              <PlaceSummary place={place} />
              {page.staffLink ? (
                <a href={page.staffLink} className={`${buttonVariants({ variant: "outline" })} w-full`}>
                  {t(place.equipmentItem ? "page.staffItem" : "page.staffRoom")}
                </a>
              ) : null}
              <TypeChoices types={place.incidentTypes} hrefOf={(id) => `${base}?type=${id}`} />
              <RoomLinks links={place.links} />
            </>
          )}
        </>
      )}
    </ReportShell>
  );
}

function ThankYou({ sent, base }: { sent: NonNullable<Extract<ReportPageData, { state: "page" }>["sent"]>; base: string }) {
  const { t } = useTranslation("report");
  return (
    <Panel>
      <div role="status" className="grid gap-2">
        <p aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-success/15 text-2xl text-success-text">
          ✓
        </p>
        <h1 className="text-xl font-semibold">{sent.shortId === null ? t("sent.titleNoNumber") : t("sent.title", { shortId: sent.shortId })}</h1>
        <p className="text-sm">{sent.folded ? t("sent.folded") : t("sent.created")}</p>
        {sent.mailed ? <p className="text-sm">{t("sent.mailed")}</p> : null}
      </div>
      <a href={base} className={`${buttonVariants({ variant: "outline", size: "lg" })} w-full`}>
        {t("sent.another")}
      </a>
    </Panel>
  );
}

function ReportForm({
  place,
  type,
  base,
  result,
  question,
  limitedMinutes,
}: {
  place: PublicPlace;
  type: PublicPlace["incidentTypes"][number];
  base: string;
  result: ReportActionData | undefined;
  question: { a: number; b: number; token: string } | null;
  limitedMinutes: number | null;
}) {
  const { t } = useTranslation("report");
  const messages = useErrorMessages();
  const invalid = result?.state === "invalid" ? result : null;
  const where = [place.equipmentItem?.name, place.roomName, place.buildingName].filter(Boolean).join(" · ");
  return (
    <>
      <a href={base} className="inline-flex min-h-11 w-fit items-center gap-1 text-sm font-medium underline underline-offset-4">
        <span aria-hidden="true">←</span>
        {t("form.back")}
      </a>
      <Panel>
        <div className="grid gap-1">
          <h1 className="text-xl font-semibold break-words">{type.name}</h1>
          <p className="text-sm text-muted-foreground">{where}</p>
        </div>
        {limitedMinutes !== null ? (
          <Alert variant="destructive">
            <p className="font-semibold">{t("limited.title")}</p>
            <p>{t("limited.text", { count: limitedMinutes })}</p>
          </Alert>
        ) : (
          <form method="post" action={`${base}?type=${type.id}`} encType="multipart/form-data" className="grid gap-5">
            {result?.state === "error" ? <Alert variant="destructive">{t("form.couldNotSend")}</Alert> : null}
            {invalid ? <ReportFormErrors errors={invalid.formErrors} /> : null}
            <ReportFields type={type} values={invalid?.values} errors={invalid?.fieldErrors} photosLost={invalid?.photosLost} withEmail />
            {question ? (
              <Field
                label={t("form.captcha", { a: question.a, b: question.b })}
                htmlFor="report-answer"
                required
                errors={messages(invalid?.fieldErrors.answer)}
                description={t("form.captchaHint")}
              >
                <input type="hidden" name="questionToken" value={question.token} />
                <Input
                  {...fieldControlProps("report-answer", { errors: invalid?.fieldErrors.answer, description: true })}
                  name="answer"
                  inputMode="numeric"
                  autoComplete="off"
                  required
                  maxLength={3}
                  className="max-w-32"
                />
              </Field>
            ) : null}
            {/* The honeypot: people never see it (nor screen readers); bots fill it in. */}
            <div aria-hidden="true" className="absolute -left-[10000px] top-auto size-px overflow-hidden">
              <label htmlFor="report-website">{t("form.honeypot")}</label>
              <input id="report-website" type="text" name={REPORT_HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
            </div>
            <button type="submit" className={`${buttonVariants({ size: "lg" })} w-full`}>
              {t("form.submit")}
            </button>
          </form>
        )}
      </Panel>
    </>
  );
}
