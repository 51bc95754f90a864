/**
 * Service levels (issue 62): the shapes the working-time arithmetic (`working-time.ts`) and the entity's
 * settings (`queries.server.ts`) share. Client-safe; no logic here.
 */

/** How a target's clock counts: only within the entity's working hours, or every hour of the day. */
export type ClockKind = "working" | "calendar";

/** One opening interval of a weekday, in minutes after local midnight: [opens, closes), 0 <= opens < closes <= 1440. */
export interface OpeningInterval {
  opens: number;
  closes: number;
}

/**
 * An entity's working calendar: when the working clock runs.
 * - `week[d]`: the opening intervals of ISO weekday d (1 Monday .. 7 Sunday), sorted, not overlapping; a day
 *   without intervals (or missing) is closed.
 * - `closedDays`: local dates ("YYYY-MM-DD") closed whatever the weekday says (public holidays).
 * - `timeZone`: the entity's IANA time zone; opening times are local wall-clock times there, so a day of a
 *   daylight-saving change keeps its opening hours.
 */
export interface WorkingCalendar {
  timeZone: string;
  week: Partial<Record<1 | 2 | 3 | 4 | 5 | 6 | 7, readonly OpeningInterval[]>>;
  closedDays: ReadonlySet<string>;
}

/** A span during which a target's clock runs: from `from` until `to` (null: still running). */
export interface ClockRun {
  from: Date;
  to: Date | null;
}
