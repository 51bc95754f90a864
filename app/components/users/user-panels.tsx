import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms/form-parts";
import { FormErrors } from "~/components/forms/zod-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { RESEND_INTENT, STATUS_INTENT } from "./user-form-constants";
import { UserStatusBadge } from "./user-status";
import { useDates } from "~/lib/use-dates";
import { USER_HISTORY_ACTIONS } from "~/core/audit-actions";

const formErrorsOf = (result?: SubmissionResult<string[]>) => (result?.error ? Object.values(result.error).flat().filter((e): e is string => typeof e === "string") : null);

/**
 * The user's status (SPEC.md section 4) as its own small forms: Disable (an active or not yet
 * validated user) or Enable (a disabled one), `intent=status`; and for a user who has not set a
 * password yet, "Send a new invitation" (`intent=resend`).
 */
export function UserStatusCard({
  status,
  validated,
  statusResult,
  resendResult,
}: {
  status: number;
  validated: boolean;
  statusResult?: SubmissionResult<string[]>;
  resendResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("users");
  const disabled = status === 3;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("statusCard.title")}</CardTitle>
        <CardDescription>{t("statusCard.description")}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormErrors errors={formErrorsOf(statusResult)} ns={["users"]} />
        <FormErrors errors={formErrorsOf(resendResult)} ns={["users"]} />
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{t("statusCard.current")}</span>
            <UserStatusBadge status={status} />
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            {status === 1 && !validated ? (
              <Form method="post" className="contents">
                <input type="hidden" name="intent" value={RESEND_INTENT} />
                <SubmitButton intent={RESEND_INTENT}>{t("statusCard.resend")}</SubmitButton>
              </Form>
            ) : null}
            <Form method="post" className="contents">
              <input type="hidden" name="intent" value={STATUS_INTENT} />
              <input type="hidden" name="newStatus" value={disabled ? "2" : "3"} />
              <SubmitButton intent={STATUS_INTENT} variant={disabled ? "default" : "destructive"}>
                {disabled ? t("statusCard.enable") : t("statusCard.disable")}
              </SubmitButton>
            </Form>
          </div>
        </div>
        {status === 1 && !validated ? <p className="text-sm text-muted-foreground">{t("statusCard.notValidated")}</p> : null}
        {disabled ? <p className="text-sm text-muted-foreground">{t("statusCard.disabledHint")}</p> : <p className="text-sm text-muted-foreground">{t("statusCard.disableEnds")}</p>}
      </CardContent>
    </Card>
  );
}

export interface HistoryEntry {
  action: string;
  at: string;
  actorName: string | null;
  details: Record<string, unknown> | null;
}

/** The actions a user's history shows, each labelled `history.actions.<area>_<verb>`. */
const HISTORY_ACTIONS: readonly string[] = USER_HISTORY_ACTIONS;

/** Who created the user, changed their role or status, sent an invitation or archived them, and when. */
export function UserHistory({ entries }: { entries: HistoryEntry[] }) {
  const { t } = useTranslation("users");
  const dates = useDates();
  const change = (details: Record<string, unknown> | null, key: "role" | "status") => {
    const value = details?.[key];
    if (!Array.isArray(value) || value.length !== 2) return null;
    const label = (v: unknown) => (key === "role" ? t(`shell:roles.${String(v)}`) : t(`status.${String(v)}`));
    return t(`history.${key}Change`, { from: label(value[0]), to: label(value[1]) });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("history.title")}</CardTitle>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("history.empty")}</p>
        ) : (
          <ol className="grid gap-3">
            {entries.map((entry, index) => {
              const action = HISTORY_ACTIONS.includes(entry.action) ? t(`history.actions.${entry.action.replaceAll(".", "_")}`) : entry.action;
              const details = [change(entry.details, "role"), change(entry.details, "status")].filter(Boolean).join(" · ");
              return (
                <li key={`${entry.at}-${index}`} className="grid gap-0.5 border-l-2 pl-3 text-sm">
                  <p>
                    <span className="font-medium">{action}</span>
                    {details ? <span className="text-muted-foreground"> — {details}</span> : null}
                  </p>
                  <p className="text-muted-foreground">
                    <time dateTime={entry.at}>{dates.dateTime(entry.at)}</time>
                    {" · "}
                    {entry.actorName ? t("history.by", { name: entry.actorName }) : t("history.bySystem")}
                  </p>
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
