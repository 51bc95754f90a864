import { and, eq, inArray } from "drizzle-orm";
import { personActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import type { Db } from "~/db/client.server";
import { TaskStatus } from "~/db/enums";
import { plannedMaintenances } from "~/db/schema";
import { getT } from "~/i18n.server";
import { now } from "~/lib/clock.server";
import { addDays, dayIn, localInstant } from "~/lib/dates";
import { mailLocale } from "~/mail/templates.server";
import { calendarTokenOwner } from "~/modules/users/calendar-token.server";
import { tasksBetween } from "./task-queries.server";
import { taskPlace } from "./task-place";

/**
 * Each person's maintenance tasks as an iCalendar feed (RFC 5545) that Outlook, Google Calendar and
 * Apple Calendar subscribe to (decision 051). A calendar application cannot sign in, so the feed's
 * address holds a secret (the users area's `calendar-token.server.ts`), made when the person first asks
 * for it in /settings and replaced when they reset it (the old address then answers 404). The address reads
 * only; it shows what the person's own task list shows ("my tasks", within their reach) from 30 days ago
 * to FEED_HORIZON_DAYS ahead.
 */

/** How far back and ahead the feed reaches. */
export const FEED_PAST_DAYS = 30;
export const FEED_HORIZON_DAYS = 366;
/** The longest an event of a task with a time of day lasts in a calendar. */
const EVENT_MINUTES = 60;

// ---------------------------------------------------------------------------
// The feed
// ---------------------------------------------------------------------------

/**
 * The feed of the person holding `token` (an active, not archived account), as iCalendar text; null for
 * an unknown or malformed token. Reads only.
 */
export async function calendarFeed(db: Db, token: string, options: { appUrl: string }): Promise<string | null> {
  const owner = await calendarTokenOwner(db, token);
  if (!owner) return null;
  const locale = mailLocale(owner.language);
  const ctx: ServiceContext = { db, entityId: owner.entityId, actor: personActor(owner), locale, timeZone: owner.timeZone };
  const today = dayIn(now(), ctx.timeZone);
  const { items } = await tasksBetween(ctx, { from: addDays(today, -FEED_PAST_DAYS), to: addDays(today, FEED_HORIZON_DAYS) }, { assignee: "me" });
  const planIds = [...new Set(items.map((t) => t.plannedMaintenanceId))];
  const plans = planIds.length
    ? await db
        .select({ id: plannedMaintenances.id, instructions: plannedMaintenances.instructions })
        .from(plannedMaintenances)
        .where(and(inArray(plannedMaintenances.id, planIds), eq(plannedMaintenances.entityId, ctx.entityId)))
    : [];
  const instructions = new Map(plans.filter((p) => p.instructions).map((p) => [p.id, p.instructions]));
  const t = getT(locale, "tasks");
  const base = options.appUrl.replace(/\/+$/, "");
  const host = hostOf(base);
  const stamp = utcStamp(now());
  const events = items.map((task) => {
    const link = `${base}/view-task/${task.plannedMaintenanceId}/${task.dueDate}`;
    const where = taskPlace(task);
    const done = task.status === TaskStatus.DONE;
    const summary = done ? t("feed.doneSummary", { name: task.planName }) : task.planName;
    const description = [instructions.get(task.plannedMaintenanceId), link].filter(Boolean).join("\n\n");
    const lines = ["BEGIN:VEVENT", `UID:task-${task.id}@${host}`, `DTSTAMP:${stamp}`];
    if (task.dueTime) {
      const start = localInstant(task.dueDate, task.dueTime, ctx.timeZone).getTime();
      lines.push(`DTSTART:${utcStamp(start)}`, `DTEND:${utcStamp(start + EVENT_MINUTES * 60_000)}`);
    } else {
      lines.push(`DTSTART;VALUE=DATE:${compactDay(task.dueDate)}`, `DTEND;VALUE=DATE:${compactDay(addDays(task.dueDate, 1))}`);
    }
    lines.push(
      `SUMMARY:${escapeText(summary)}`,
      `LOCATION:${escapeText(where)}`,
      `DESCRIPTION:${escapeText(description)}`,
      `URL:${link}`,
      "STATUS:CONFIRMED",
      "TRANSP:TRANSPARENT",
      "END:VEVENT",
    );
    return lines;
  });
  return icsDocument(
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Caretaker//Maintenance tasks//EN",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
      `X-WR-CALNAME:${escapeText(t("feed.name"))}`,
      "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
      "X-PUBLISHED-TTL:PT1H",
      ...events.flat(),
      "END:VCALENDAR",
    ],
  );
}

// ---------------------------------------------------------------------------
// RFC 5545 text (pure; exported for the tests)
// ---------------------------------------------------------------------------

/** TEXT values: backslash, semicolon, comma and line breaks escaped (RFC 5545 section 3.3.11). */
export function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r\n|\r|\n/g, "\\n");
}

const encoder = new TextEncoder();

/**
 * A content line folded at 75 octets (RFC 5545 section 3.1): each continuation starts with one space,
 * and a UTF-8 character is never split.
 */
export function foldLine(line: string): string {
  if (encoder.encode(line).byteLength <= 75) return line;
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).byteLength;
    const limit = parts.length === 0 ? 75 : 74; // a continuation's leading space takes one octet
    if (size + bytes > limit) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** The lines as one iCalendar document: folded, CRLF after every line. */
export function icsDocument(lines: string[]): string {
  return lines.map((line) => `${foldLine(line)}\r\n`).join("");
}

const pad = (n: number) => String(n).padStart(2, "0");

/** An instant as a UTC DATE-TIME: 20261129T054500Z. */
export function utcStamp(at: number): string {
  const d = new Date(at);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

const compactDay = (day: string) => day.replaceAll("-", "");

function hostOf(base: string): string {
  try {
    return new URL(base).host || "caretaker";
  } catch {
    return "caretaker";
  }
}
