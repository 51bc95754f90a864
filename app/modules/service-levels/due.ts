/**
 * Where an incident's service-level target stands for the screens (decision 064): from its stored
 * clock and the instant the page was read. Pure and client-safe: the server's render and the
 * browser's hydration give the same answer from the same `now`.
 */

/** One target as the incident's read model carries it. */
export interface DueFacts {
  targetMinutes: number | null;
  dueAt: string | null;
  metAt: string | null;
  met: boolean | null;
}

export type DueState =
  /** The clock runs: due in `minutes` (real minutes until the due instant), or overdue by them. */
  | { kind: "dueIn" | "overdueBy"; minutes: number; dueAt: string }
  /** Met in time, or met late. */
  | { kind: "met" | "missed" }
  /** Not met, and the clock is stopped (Rejected). */
  | { kind: "stopped" };

/** Null when the incident has no such target: nothing is shown. */
export function dueState(facts: DueFacts, now: Date): DueState | null {
  if (facts.targetMinutes === null) return null;
  if (facts.metAt !== null) return { kind: facts.met ? "met" : "missed" };
  if (facts.dueAt === null) return { kind: "stopped" };
  return runningDue(facts.dueAt, now);
}

/** A running clock's due instant from `now`: due in so many real minutes, or overdue by them. */
export function runningDue(dueAt: string, now: Date): Extract<DueState, { kind: "dueIn" | "overdueBy" }> {
  const minutes = (new Date(dueAt).getTime() - now.getTime()) / 60_000;
  return minutes > 0
    ? { kind: "dueIn", minutes: Math.max(1, Math.ceil(minutes)), dueAt }
    : { kind: "overdueBy", minutes: Math.max(1, Math.floor(-minutes)), dueAt };
}

/** The parts a duration is written with: days and hours from a day on, hours and minutes from an hour on. */
export function durationParts(minutes: number): { key: "days" | "hours" | "minutes"; d: number; h: number; m: number } {
  const whole = Math.max(0, Math.round(minutes));
  const d = Math.floor(whole / 1440);
  const h = Math.floor((whole % 1440) / 60);
  const m = whole % 60;
  return { key: d > 0 ? "days" : h > 0 ? "hours" : "minutes", d, h, m };
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * A target's state in words for printed and preformatted texts: "due in 3 h 20 min (7 Dec 2026, 11:30)",
 * "overdue by 1 d 2 h (…)", "met", "missed", "stopped (rejected)"; `dateTime` writes the due instant in
 * the entity's zone (omit it for no date).
 */
export function dueWords(state: DueState, t: Translate, dateTime?: (iso: string) => string): string {
  if (state.kind === "dueIn" || state.kind === "overdueBy") {
    const parts = durationParts(state.minutes);
    const words = t(`serviceLevels:due.${state.kind}`, { duration: t(`serviceLevels:duration.${parts.key}`, parts) });
    return dateTime ? `${words} (${dateTime(state.dueAt)})` : words;
  }
  return t(`serviceLevels:due.${state.kind}`);
}
