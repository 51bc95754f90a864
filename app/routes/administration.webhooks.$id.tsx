import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BackLink, SubmitButton } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import type { TitledHandle } from "~/components/shell/document-title";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogFooter, DialogTrigger, useUrlDialog } from "~/components/ui/dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { DeliveryStatus, SecretOnce, WEBHOOKS_LIST, WebhookForm, WebhookStatus } from "~/components/webhooks/webhook-form";
import { controlCharacterErrors, formFailed, redirectWithToast, serviceFailed } from "~/http/form-action.server";
import { ownHeaders, secretAnswer } from "~/http/answer-headers.server";
import { screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { useDates } from "~/lib/use-dates";
import { getWebhook, listWebhookDeliveries } from "~/modules/webhooks/queries.server";
import { webhookEventKey } from "~/modules/webhooks/events";
import { deliveryErrorText } from "~/modules/webhooks/delivery-errors";
import { deleteWebhook, pingWebhook, rotateWebhookSecret, setWebhookEnabled, updateWebhook } from "~/modules/webhooks/service.server";

/**
 * /administration/webhooks/{id} (decision 057): one endpoint, administrators only. Its form (`update`),
 * a test ping (`ping`), disable and enable, a new secret (`rotate`, confirmed at `?dialog=rotate`, the
 * secret answered by the post and shown this once) and deletion (`delete`, confirmed at
 * `?dialog=delete`); below, its deliveries newest first with the endpoint's answers, a page at a time
 * (`?before=<id>`). Another entity's id is the "Webhook not found" page. Everything is a plain form or link.
 */
const webhook = subjectById(getWebhook, "webhooks:errors.notFound");

export const loader = screenLoader(webhook, async ({ ctx, url, subject }) => {
  const raw = url.searchParams.get("before");
  const before = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  return { webhook: subject, deliveries: await listWebhookDeliveries(ctx, subject.id, { before }), paged: before !== null };
});

export const handle: TitledHandle = { documentTitle: (data: { webhook: { name: string } }) => data.webhook.name };

const here = (id: number) => `${WEBHOOKS_LIST}/${id}`;

/** The new secret's `no-store` reaches the page and its `.data` answer. */
export const headers = ownHeaders;

export const action = screenAction({
  subject: webhook,
  intents: {
    update: async ({ formData, ctx, subject }) => {
      const { WebhookSchema } = await import("~/modules/webhooks/schema");
      const submission = parseWithZod(formData, { schema: WebhookSchema });
      const control = controlCharacterErrors(formData);
      if (control) return formFailed("update", submission.reply({ fieldErrors: control }));
      if (submission.status !== "success") return formFailed("update", submission.reply());
      try {
        await updateWebhook(ctx, subject.id, submission.value);
      } catch (error) {
        return serviceFailed("update", (errors) => submission.reply(errors), error);
      }
      return redirectWithToast(here(subject.id), "common:toast.updated");
    },
    ping: async ({ ctx, subject }) => {
      await pingWebhook(ctx, subject.id);
      return redirectWithToast(here(subject.id), "webhooks:toast.pinged");
    },
    disable: async ({ ctx, subject }) => {
      await setWebhookEnabled(ctx, subject.id, false);
      return redirectWithToast(here(subject.id), "webhooks:toast.disabled");
    },
    enable: async ({ ctx, subject }) => {
      await setWebhookEnabled(ctx, subject.id, true);
      return redirectWithToast(here(subject.id), "webhooks:toast.enabled");
    },
    rotate: async ({ ctx, subject }) => {
      const { secret } = await rotateWebhookSecret(ctx, subject.id);
      return secretAnswer({ intent: "rotated" as const, secret });
    },
    delete: async ({ ctx, subject }) => {
      await deleteWebhook(ctx, subject.id);
      return redirectWithToast(WEBHOOKS_LIST, "webhooks:toast.deleted");
    },
  },
});

function ConfirmDialog({ name, title, text, intent, confirmLabel, destructive }: { name: string; title: string; text: string; intent: string; confirmLabel: string; destructive?: boolean }) {
  const { t } = useTranslation("webhooks");
  const dialog = useUrlDialog(name);
  return (
    <Dialog open={dialog.open} closeTo={dialog.closeTo} title={title} description={text} closeLabel={t("common:actions.close")} size="sm">
      <Form method="post" action={dialog.closeTo} preventScrollReset>
        <DialogFooter>
          <Link to={dialog.closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
            {t("common:actions.cancel")}
          </Link>
          <SubmitButton intent={intent} postsIntent variant={destructive ? "destructive" : "default"}>
            {confirmLabel}
          </SubmitButton>
        </DialogFooter>
      </Form>
    </Dialog>
  );
}

export default function AdministrationWebhook() {
  const { t } = useTranslation("webhooks");
  const { webhook: endpoint, deliveries, paged } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { intent?: string; secret?: string } | undefined;
  const resultFor = useResultFor();
  const dates = useDates();
  const location = useLocation();
  const rotateDialog = useUrlDialog("rotate");
  const deleteDialog = useUrlDialog("delete");
  return (
    <div className="mx-auto grid w-full max-w-4xl gap-6">
      <ConfirmDialog name="rotate" title={t("rotate.title")} text={t("rotate.text")} intent="rotate" confirmLabel={t("rotate.confirm")} />
      <ConfirmDialog name="delete" title={t("delete.title", { name: endpoint.name })} text={t("delete.text")} intent="delete" confirmLabel={t("delete.confirm")} destructive />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <BackLink to={WEBHOOKS_LIST}>{t("back")}</BackLink>
          <h1 className="break-words text-2xl font-semibold tracking-tight">{endpoint.name}</h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <WebhookStatus enabled={endpoint.enabled} disabledReason={endpoint.disabledReason} />
            {!endpoint.enabled && endpoint.disabledAt ? <span>{t("detail.disabledAt", { at: dates.dateTime(endpoint.disabledAt) })}</span> : null}
          </div>
        </div>
        <Form method="post" className="flex flex-wrap gap-2 [&>*]:flex-auto sm:[&>*]:flex-none">
          <Button type="submit" name="intent" value="ping" variant="outline">
            {t("detail.ping")}
          </Button>
          {endpoint.enabled ? (
            <Button type="submit" name="intent" value="disable" variant="outline">
              {t("detail.disable")}
            </Button>
          ) : (
            <Button type="submit" name="intent" value="enable" variant="outline">
              {t("detail.enable")}
            </Button>
          )}
          <DialogTrigger to={rotateDialog.openTo} variant="outline">
            {t("rotate.open")}
          </DialogTrigger>
          <DialogTrigger to={deleteDialog.openTo} variant="outline" className="text-destructive hover:text-destructive">
            {t("delete.open")}
          </DialogTrigger>
        </Form>
      </div>

      {answer?.intent === "rotated" && answer.secret ? <SecretOnce secret={answer.secret} /> : null}

      <Card>
        <CardHeader>
          <CardTitle as="h2">{t("detail.deliveries")}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {deliveries.rows.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("detail.noDeliveries")}</p>
          ) : (
            <Table className="stack-table" aria-label={t("detail.deliveries")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("deliveries.when")}</TableHead>
                  <TableHead>{t("deliveries.event")}</TableHead>
                  <TableHead>{t("deliveries.status")}</TableHead>
                  <TableHead>{t("deliveries.answer")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {deliveries.rows.map((delivery) => (
                  <TableRow key={delivery.id} data-testid="webhook-delivery">
                    <TableCell className="whitespace-nowrap align-top">{dates.dateTime(delivery.createdAt)}</TableCell>
                    <TableCell className="align-top">
                      <div>{t(webhookEventKey(delivery.eventType), { defaultValue: delivery.eventType })}</div>
                      <div className="font-mono text-xs text-muted-foreground">{delivery.publicId}</div>
                    </TableCell>
                    <TableCell className="align-top">
                      <div className="grid gap-1">
                        <DeliveryStatus status={delivery.status} />
                        <span className="text-xs text-muted-foreground">{t("deliveries.attempts", { count: delivery.attempts, max: delivery.maxAttempts })}</span>
                        {delivery.status === "pending" && delivery.nextAttemptAt ? (
                          <span className="text-xs text-muted-foreground">{t("deliveries.next", { at: dates.dateTime(delivery.nextAttemptAt) })}</span>
                        ) : null}
                      </div>
                    </TableCell>
                    <TableCell className="align-top">
                      {delivery.lastStatusCode !== null ? (
                        <div className="text-sm">
                          HTTP {delivery.lastStatusCode}
                          {delivery.lastDurationMs !== null ? <span className="text-muted-foreground"> · {t("deliveries.duration", { ms: delivery.lastDurationMs })}</span> : null}
                        </div>
                      ) : null}
                      {delivery.lastError && delivery.lastStatusCode === null ? <DeliveryError error={delivery.lastError} /> : null}
                      {delivery.lastResponse ? <pre className="mt-1 max-w-xs overflow-hidden whitespace-pre-wrap break-all text-xs text-muted-foreground">{delivery.lastResponse}</pre> : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <p className="text-sm text-muted-foreground">{t("detail.kept", { count: deliveries.keptDays })}</p>
          <nav aria-label={t("deliveries.pages")} className="flex flex-wrap gap-2">
            {paged ? (
              <Link to={location.pathname} className={buttonVariants({ variant: "outline" })}>
                {t("deliveries.newest")}
              </Link>
            ) : null}
            {deliveries.nextBefore ? (
              <Link to={`${location.pathname}?before=${deliveries.nextBefore}`} rel="next" className={buttonVariants({ variant: "outline" })}>
                {t("deliveries.older")}
              </Link>
            ) : null}
          </nav>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">{t("detail.edit")}</CardTitle>
        </CardHeader>
        <CardContent>
          <WebhookForm
            intent="update"
            webhook={{ name: endpoint.name, url: endpoint.url, events: endpoint.events }}
            submitLabel={t("common:actions.save")}
            cancelTo={here(endpoint.id)}
            lastResult={resultFor("update")}
          />
        </CardContent>
      </Card>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

/** A delivery's error in the reader's language where it is a known one (with the recorded text), as recorded otherwise. */
function DeliveryError({ error }: { error: string }) {
  const { t } = useTranslation("webhooks");
  const known = deliveryErrorText(error);
  if (!known) return <div className="text-sm text-destructive">{error}</div>;
  // The recorded text stays beside the sentence: the detail a receiver's administrator may ask for.
  return (
    <div className="grid gap-0.5">
      <div className="text-sm text-destructive">{t(known.key, known.values)}</div>
      <div lang="en" className="break-all font-mono text-xs text-muted-foreground">
        {error}
      </div>
    </div>
  );
}
