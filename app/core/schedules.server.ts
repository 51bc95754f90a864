import type { z } from "zod";
import { type CronExpression, isTimeZone, nextCronTime, parseCron } from "~/lib/cron";
import { DEFAULT_TIME_ZONE } from "~/lib/dates";
import type { JobDefinition } from "./jobs.server";

/**
 * Recurring jobs declared in code (decision 045). A schedule only enqueues an ordinary job of the queue
 * (its `job`, with its `payload`) once per due time; the job runs, retries and fails like any other.
 * Definitions live beside their area (`modules/<area>/jobs.server.ts`) and are listed in
 * `app/jobs/registry.server.ts`; the queue's workers fire them (app/jobs/schedules.server.ts).
 *
 * Due times come from a five-field `cron` expression in `timeZone` (app/lib/cron.ts: wall-clock times,
 * daylight-saving changes included), or every `everySeconds` seconds counted from the previous due time.
 * After downtime that skipped due times, a schedule fires once and goes on from the next future one.
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
  /** `minute hour day-of-month month day-of-week` (see app/lib/cron.ts for what is supported). */
  cron?: string;
  /** A whole number of seconds from 1; exclusive with `cron`. */
  everySeconds?: number;
  /** Default Europe/Brussels. */
  timeZone?: string;
}

export const DEFAULT_SCHEDULE_TIME_ZONE = DEFAULT_TIME_ZONE;

const parsed = new WeakMap<ScheduleDefinition, CronExpression>();

/** Declares a schedule; throws at once (at import) when it is malformed. */
export function defineSchedule<S extends z.ZodType>(input: ScheduleInput<S>): ScheduleDefinition<S> {
  const { name, job, payload, cron, everySeconds } = input;
  const timeZone = input.timeZone ?? DEFAULT_SCHEDULE_TIME_ZONE;
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) throw new Error(`schedule "${name}": the name must be kebab-case`);
  if ((cron === undefined) === (everySeconds === undefined)) throw new Error(`schedule ${name}: give either cron or everySeconds`);
  if (everySeconds !== undefined && (!Number.isInteger(everySeconds) || everySeconds < 1)) {
    throw new Error(`schedule ${name}: everySeconds must be a whole number from 1`);
  }
  if (!isTimeZone(timeZone)) throw new Error(`schedule ${name}: unknown time zone "${timeZone}"`);
  const expression = cron === undefined ? null : parseCron(cron);
  job.payload.parse(payload);
  const definition: ScheduleDefinition<S> = { name, job, payload, timeZone, ...(expression ? { cron: expression.source } : { everySeconds }) };
  if (expression) parsed.set(definition as ScheduleDefinition, expression);
  return definition;
}

function expressionOf(schedule: ScheduleDefinition): CronExpression {
  let expression = parsed.get(schedule);
  if (!expression) {
    expression = parseCron(schedule.cron!);
    parsed.set(schedule, expression);
  }
  return expression;
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
  if (schedule.cron !== undefined) return nextCronTime(expressionOf(schedule), now, schedule.timeZone);
  const every = schedule.everySeconds! * 1000;
  if (previousDue === null) return Math.ceil((now + every) / 1000) * 1000;
  if (previousDue > now) return previousDue;
  return previousDue + (Math.floor((now - previousDue) / every) + 1) * every;
}
