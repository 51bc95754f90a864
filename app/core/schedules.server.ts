import { Cron } from "croner";
import type { z } from "zod";
import { DEFAULT_TIME_ZONE, isSupportedTimeZone } from "~/lib/dates";
import type { JobDefinition } from "./jobs.server";

/**
 * Recurring jobs declared in code (decision 020). A schedule only enqueues an ordinary job of the queue
 * (its `job`, with its `payload`) once per due time; the job runs, retries and fails like any other.
 * Definitions live beside their area (`modules/<area>/jobs.server.ts`) and are listed in
 * `app/jobs/registry.server.ts`; the queue's workers fire them (app/jobs/schedules.server.ts).
 *
 * Due times come from a five-field `cron` expression in `timeZone`, read by croner, or every
 * `everySeconds` seconds counted from the previous due time. After downtime that skipped due times, a
 * schedule fires once and goes on from the next future one.
 *
 * Daylight-saving changes follow croner with Vixie cron's rule (`fixedTimeRule: "no-wildcard"`): a job
 * whose minute and hour fields have no `*` or step is a fixed-time job; a time of it skipped when clocks go
 * forward is due at the first valid time after the change (02:30 in Brussels runs at 03:00 CEST), and a
 * time that occurs twice is due at its first occurrence only. Other jobs (`0 * * * *`, `*\/15 2 * * *`)
 * keep to the real clock: no run in the skipped hour, a run at both occurrences of a repeated time.
 */
export interface ScheduleDefinition<S extends z.ZodType = z.ZodType> {
  /** Unique name (kebab-case): the key of its row in `job_schedules`. */
  name: string;
  job: JobDefinition<S>;
  /** The job's payload, validated by the job's schema when defined and when enqueued. */
  payload: z.input<S>;
  cron?: string;
  everySeconds?: number;
  /** IANA time zone of the cron expression (interval schedules do not depend on it). */
  timeZone: string;
}

export interface ScheduleInput<S extends z.ZodType> {
  name: string;
  job: JobDefinition<S>;
  payload: z.input<S>;
  /** `minute hour day-of-month month day-of-week`, croner's syntax (names, `L`, `W`, `#` and `@daily` too). */
  cron?: string;
  /** A whole number of seconds from 1; exclusive with `cron`. */
  everySeconds?: number;
  /** Default Europe/Brussels. */
  timeZone?: string;
}

export const DEFAULT_SCHEDULE_TIME_ZONE = DEFAULT_TIME_ZONE;

const crons = new WeakMap<ScheduleDefinition, Cron>();

/** The expression read by croner in the zone; throws an error naming the schedule and what is wrong. */
function cronOf(name: string, expression: string, timeZone: string): Cron {
  let cron: Cron;
  try {
    cron = new Cron(expression, { timezone: timeZone, mode: "5-part", fixedTimeRule: "no-wildcard" });
  } catch (error) {
    throw new Error(`schedule ${name}: cron "${expression}" is not valid: ${(error as Error).message}`);
  }
  // An expression every part of which is valid may still name no day (`0 0 30 2 *`).
  if (cron.nextRun(new Date(0)) === null) throw new Error(`schedule ${name}: cron "${expression}" is never due`);
  return cron;
}

/** Declares a schedule; throws at once (at import) when it is malformed. */
export function defineSchedule<S extends z.ZodType>(input: ScheduleInput<S>): ScheduleDefinition<S> {
  const { name, job, payload, everySeconds } = input;
  const timeZone = input.timeZone ?? DEFAULT_SCHEDULE_TIME_ZONE;
  // Single spaces, so that a reformatted expression is the same spec (the schedule row's key of a change).
  const cron = input.cron?.trim().split(/\s+/).join(" ");
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) throw new Error(`schedule "${name}": the name must be kebab-case`);
  if ((cron === undefined) === (everySeconds === undefined)) throw new Error(`schedule ${name}: give either cron or everySeconds`);
  if (everySeconds !== undefined && (!Number.isInteger(everySeconds) || everySeconds < 1)) {
    throw new Error(`schedule ${name}: everySeconds must be a whole number from 1`);
  }
  if (!isSupportedTimeZone(timeZone)) throw new Error(`schedule ${name}: unknown time zone "${timeZone}"`);
  const reader = cron === undefined ? null : cronOf(name, cron, timeZone);
  job.payload.parse(payload);
  const definition: ScheduleDefinition<S> = { name, job, payload, timeZone, ...(cron !== undefined ? { cron } : { everySeconds }) };
  if (reader) crons.set(definition as ScheduleDefinition, reader);
  return definition;
}

function cronOfSchedule(schedule: ScheduleDefinition): Cron {
  let cron = crons.get(schedule);
  if (!cron) {
    cron = cronOf(schedule.name, schedule.cron!, schedule.timeZone);
    crons.set(schedule, cron);
  }
  return cron;
}

/**
 * What a schedule's due times are computed from: a row whose stored spec differs was defined otherwise
 * before, and its next due time is computed again.
 */
export function scheduleSpec(schedule: ScheduleDefinition): string {
  return schedule.cron !== undefined ? `cron ${schedule.cron} ${schedule.timeZone}` : `every ${schedule.everySeconds}s`;
}

/**
 * The next due time (ms since the epoch) strictly after `now`. A cron schedule takes its next matching
 * time; an interval schedule keeps its rhythm from `previousDue` (the due time that just fired, however
 * long ago), or starts one interval from now when it has none.
 */
export function nextDueTime(schedule: ScheduleDefinition, now: number, previousDue: number | null = null): number {
  if (schedule.cron !== undefined) {
    const next = cronOfSchedule(schedule).nextRun(new Date(now));
    if (!next) throw new Error(`schedule ${schedule.name}: cron "${schedule.cron}" is never due after ${new Date(now).toISOString()}`);
    return next.getTime();
  }
  const every = schedule.everySeconds! * 1000;
  if (previousDue === null) return Math.ceil((now + every) / 1000) * 1000;
  if (previousDue > now) return previousDue;
  return previousDue + (Math.floor((now - previousDue) / every) + 1) * every;
}
