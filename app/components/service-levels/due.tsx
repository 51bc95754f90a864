import { useTranslation } from "react-i18next";
import { useDates } from "~/lib/use-dates";
import { type DueFacts, dueState, durationParts } from "~/modules/service-levels/due";

/**
 * A service-level target of an incident in words (decision 064): "due in 3 h 20 min", "overdue by
 * 1 d 2 h" (with the due time in the entity's zone), "met", "missed", "stopped". Nothing when the
 * incident has no such target. `now` is the instant the page was read (the loader's), so the server
 * and the browser write the same text.
 */
export function DueText({ facts, now }: { facts: DueFacts; now: string }) {
  const { t } = useTranslation("serviceLevels");
  const { dateTime } = useDates();
  const state = dueState(facts, new Date(now));
  if (!state) return null;
  if (state.kind === "dueIn" || state.kind === "overdueBy") {
    const parts = durationParts(state.minutes);
    const duration = t(`serviceLevels:duration.${parts.key}`, parts);
    return (
      <span data-due={state.kind} className={state.kind === "overdueBy" ? "font-medium text-destructive" : undefined}>
        {t(`serviceLevels:due.${state.kind}`, { duration })}{" "}
        <span className="text-muted-foreground">
          (<time dateTime={state.dueAt}>{dateTime(state.dueAt)}</time>)
        </span>
      </span>
    );
  }
  return (
    <span data-due={state.kind} className={state.kind === "missed" ? "font-medium text-destructive" : undefined}>
      {t(`serviceLevels:due.${state.kind}`)}
    </span>
  );
}
