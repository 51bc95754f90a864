import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "~/components/forms/zod-form";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { useDates } from "~/lib/use-dates";
import type { CheckToAnswer, TaskAnswer } from "~/modules/maintenance/inspection-schema";

/** A check to answer, its label in the viewer's language (maintenance/inspections.server.ts). */
export type CheckToAnswerView = CheckToAnswer;

export type AnswerView = TaskAnswer;

/** A number check's allowed range in words ("1.5 to 2.5", "at least 1.5"), or nothing. */
function useRange() {
  const { t } = useTranslation("tasks");
  return (check: { minValue: number | null; maxValue: number | null }) =>
    check.minValue !== null && check.maxValue !== null
      ? t("inspection.range", { min: check.minValue, max: check.maxValue })
      : check.minValue !== null
        ? t("inspection.rangeMin", { min: check.minValue })
        : check.maxValue !== null
          ? t("inspection.rangeMax", { max: check.maxValue })
          : null;
}

/**
 * The checklist inside a task's "done" form (a plain multipart post): pass or fail as two radio
 * buttons, a number, a text, and a photo where the check takes one. A refused post shows it again with
 * the answers given (`values`) and each check's error beside it.
 */
export function ChecklistFields({
  taskId,
  checks,
  values,
  errors,
}: {
  taskId: number;
  checks: CheckToAnswerView[];
  values: Record<string, unknown> | undefined;
  errors: Record<string, string[] | null> | null | undefined;
}) {
  const { t } = useTranslation("tasks");
  const errorText = useErrorText(["tasks", "maintenance"]);
  const range = useRange();
  const given = (values?.checks ?? {}) as Record<string, string>;
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-semibold">{t("inspection.title")}</legend>
      <p className="text-xs text-muted-foreground">{t("inspection.hint")}</p>
      {checks.map((check) => {
        const id = `t${taskId}-check-${check.id}`;
        const name = `checks.${check.id}`;
        const error = errorText(errors?.[name] ?? null)?.[0];
        const photoError = errorText(errors?.[`checkPhotos.${check.id}`] ?? null)?.[0];
        const hint = check.kind === 1 ? range(check) : null;
        const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
        return (
          <div key={check.id} className="grid gap-1.5" data-testid={`check-${check.id}`}>
            {check.kind === 0 ? (
              <fieldset className="grid gap-1" aria-describedby={describedBy}>
                <legend className="text-sm font-medium">{check.label}</legend>
                <div className="flex gap-4 text-sm">
                  {(["pass", "fail"] as const).map((v) => (
                    <label key={v} className="flex items-center gap-1.5">
                      <input type="radio" name={name} value={v} defaultChecked={given[String(check.id)] === v} className="size-4" />
                      {t(`inspection.${v}`)}
                    </label>
                  ))}
                </div>
              </fieldset>
            ) : (
              <>
                <Label htmlFor={id}>{check.label}</Label>
                {check.kind === 1 ? (
                  <Input id={id} name={name} inputMode="decimal" defaultValue={given[String(check.id)] ?? ""} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className="sm:w-48" />
                ) : (
                  <Textarea id={id} name={name} rows={2} defaultValue={given[String(check.id)] ?? ""} aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
                )}
              </>
            )}
            {hint ? (
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {hint}
              </p>
            ) : null}
            {error ? (
              <p id={`${id}-error`} className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
            <div className="grid gap-1">
              <Label htmlFor={`${id}-photo`} className="text-xs font-normal">
                {check.photoRequired ? t("inspection.photoRequired") : t("inspection.photoOptional")}
              </Label>
              <input id={`${id}-photo`} name={`checkPhotos.${check.id}`} type="file" accept="image/png,image/jpeg,image/gif,image/webp" className="text-sm" aria-invalid={photoError ? true : undefined} />
              {photoError ? <p className="text-sm text-destructive">{photoError}</p> : null}
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}

/** A done inspection: each answer (failed ones marked, with the incident they opened) and the sign-off. */
export function InspectionAnswers({ answers, signedOff }: { answers: AnswerView[]; signedOff: { name: string | null; at: string | Date | null } }) {
  const { t } = useTranslation("tasks");
  const dates = useDates();
  const range = useRange();
  if (answers.length === 0) return null;
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-semibold">{t("inspection.title")}</h3>
      <ul className="grid gap-1.5 text-sm">
        {answers.map((a) => (
          <li key={a.position} className="grid gap-0.5">
            <span>
              <span className="font-medium">{a.label}</span>: {a.kind === 0 ? t(`inspection.${a.answer === "pass" ? "pass" : "fail"}`) : a.answer}
              {a.kind === 1 && range(a) ? <span className="text-muted-foreground"> ({range(a)})</span> : null}
              {a.passed === false ? <span className="ml-2 font-medium text-destructive">{t("inspection.failed")}</span> : null}
            </span>
            {a.incident ? (
              <Link to={`/incident/${a.incident.id}`} className="w-fit text-sm underline underline-offset-4">
                {t("inspection.openedIncident", { shortId: a.incident.shortId })}
              </Link>
            ) : null}
            {a.photoFileId ? (
              <a href={`/files/${a.photoFileId}`} className="w-fit">
                <img src={`/files/${a.photoFileId}`} alt={t("inspection.photoOf", { check: a.label })} className="max-h-32 rounded border" loading="lazy" />
              </a>
            ) : null}
          </li>
        ))}
      </ul>
      {signedOff.at ? <p className="text-sm font-medium">{t("inspection.signedOff", { name: signedOff.name || t("someone"), when: dates.dateTime(signedOff.at) })}</p> : null}
    </div>
  );
}

/** On an incident that a failed inspection check opened: the link back to the task's day. */
export function OpenedByInspection({ inspection }: { inspection: { plannedMaintenanceId: number; dueDate: string; planName: string; label: string } }) {
  const { t } = useTranslation("tasks");
  const dates = useDates();
  return (
    <p className="text-sm">
      {t("inspection.openedBy")}{" "}
      <Link to={`/view-task/${inspection.plannedMaintenanceId}/${inspection.dueDate}`} className="font-medium underline underline-offset-4">
        {t("inspection.taskLink", { plan: inspection.planName, day: dates.day(inspection.dueDate), check: inspection.label })}
      </Link>
    </p>
  );
}
