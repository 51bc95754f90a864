import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogFooter, DialogTrigger, useUrlDialog } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";

export const CALENDAR_CREATE_INTENT = "calendar";
export const CALENDAR_RESET_INTENT = "calendar-reset";

/**
 * The settings' "Calendar feed" section (decision 051): the person's secret iCalendar address to paste
 * into Outlook or Google Calendar, made on demand; resetting it (after a confirmation, `?dialog=calendar-reset`,
 * which works without JavaScript) makes a new one and the old one stops working.
 */
export function CalendarFeedCard({ url }: { url: string | null }) {
  const { t } = useTranslation("tasks");
  const reset = useUrlDialog("calendar-reset");
  return (
    <Card>
      <Dialog open={reset.open} closeTo={reset.closeTo} title={t("feed.resetTitle")} description={t("feed.resetDescription")} closeLabel={t("feed.cancel")} size="sm">
        <Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value={CALENDAR_RESET_INTENT} />
          <DialogFooter>
            <Link to={reset.closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
              {t("feed.cancel")}
            </Link>
            <Button type="submit" variant="destructive">
              {t("feed.resetConfirm")}
            </Button>
          </DialogFooter>
        </Form>
      </Dialog>
      <CardHeader>
        <CardTitle as="h2">{t("feed.title")}</CardTitle>
        <CardDescription>{t("feed.description")}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {url ? (
          <>
            <div className="grid gap-1.5">
              <Label htmlFor="calendar-feed-url">{t("feed.address")}</Label>
              <Input id="calendar-feed-url" readOnly value={url} aria-describedby="calendar-feed-hint" onFocus={(event) => event.currentTarget.select()} className="font-mono text-xs" />
              <p id="calendar-feed-hint" className="text-sm text-muted-foreground">
                {t("feed.copyHint")}
              </p>
            </div>
            <p className="text-sm text-muted-foreground">{t("feed.secretHint")}</p>
            <DialogTrigger to={reset.openTo} variant="outline" className="w-full sm:w-fit">
              {t("feed.reset")}
            </DialogTrigger>
          </>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value={CALENDAR_CREATE_INTENT} />
            <Button type="submit" variant="outline" className="w-full sm:w-fit">
              {t("feed.create")}
            </Button>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}
