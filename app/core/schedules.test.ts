import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineJob } from "./jobs.server";
import { defineSchedule, nextDueTime, scheduleSpec } from "./schedules.server";

/**
 * The due times of cron schedules (decision 020): wall-clock times of the schedule's zone, with the
 * daylight-saving rules written out (Brussels: clocks forward on 2026-03-29 at 02:00 CET, back on
 * 2026-10-25 at 03:00 CEST). The queue that fires them is tested in app/jobs/schedules.server.test.ts.
 */
const job = defineJob({ name: "test-due", payload: z.object({}), async handler() {} });
const schedule = (cron: string, timeZone = "Europe/Brussels") => defineSchedule({ name: "test-due", job, payload: {}, cron, timeZone });

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const next = (cron: string, from: string, timeZone?: string) => iso(nextDueTime(schedule(cron, timeZone), at(from)));

/** The due times of `cron` in `timeZone` in [from, to), as ISO strings (UTC). */
function dueBetween(cron: string, timeZone: string, from: string, to: string): string[] {
  const definition = schedule(cron, timeZone);
  const out: string[] = [];
  let t = at(from) - 1;
  for (;;) {
    t = nextDueTime(definition, t);
    if (t >= at(to)) return out;
    out.push(iso(t));
  }
}

describe("cron expressions", () => {
  it.each([
    ["", /not valid/],
    ["* * * *", /not valid/],
    ["* * * * * *", /not valid: .*5 parts/],
    ["60 * * * *", /not valid: .*minute/],
    ["0 25 * * *", /not valid: .*hour/],
    ["* * 32 * *", /not valid: .*day/],
    ["* * * 13 *", /not valid: .*month/],
    ["* * * * 8", /not valid: .*dayOfWeek/],
    ["0 22-2 * * *", /not valid: .*22-2/],
    ["*/0 * * * *", /not valid: .*stepping/],
    ["1,,2 * * * *", /not valid: .*empty/],
    ["0 0 30 2 *", /is never due/],
    ["0 0 31 4,6,9,11 *", /is never due/],
  ])("refuse %j, saying which schedule and what is wrong", (cron, message) => {
    expect(() => schedule(cron)).toThrow(message);
    expect(() => schedule(cron)).toThrow(`schedule test-due: cron "${cron.trim()}"`);
  });

  it("refuse an unknown time zone", () => {
    expect(() => schedule("0 3 * * *", "Europe/Atlantis")).toThrow('schedule test-due: unknown time zone "Europe/Atlantis"');
  });

  it("are kept with single spaces, so that a reformatted expression is the same spec", () => {
    expect(scheduleSpec(schedule("  15   3 * *  * "))).toBe("cron 15 3 * * * Europe/Brussels");
  });

  it("take names and shorthands as croner reads them", () => {
    // 2026-05-08 is a Friday.
    expect(next("0 12 * * MON-FRI", "2026-05-08T12:00:00Z", "UTC")).toBe("2026-05-11T12:00:00.000Z");
    expect(next("@daily", "2026-05-08T12:00:00Z", "UTC")).toBe("2026-05-09T00:00:00.000Z");
    expect(next("0 0 L 2 *", "2026-01-10T00:00:00Z", "UTC")).toBe("2026-02-28T00:00:00.000Z");
  });
});

describe("due times in UTC", () => {
  it("are the next matching minute, strictly after the given instant", () => {
    expect(next("*/15 * * * *", "2026-05-04T10:07:30Z", "UTC")).toBe("2026-05-04T10:15:00.000Z");
    expect(next("*/15 * * * *", "2026-05-04T10:15:00Z", "UTC")).toBe("2026-05-04T10:30:00.000Z");
    expect(next("*/15 * * * *", "2026-05-04T10:14:59.999Z", "UTC")).toBe("2026-05-04T10:15:00.000Z");
    expect(next("* * * * *", "2026-05-04T23:59:00Z", "UTC")).toBe("2026-05-05T00:00:00.000Z");
    expect(next("0,15-17,*/20 2-8/3 * * *", "2026-05-04T05:17:00Z", "UTC")).toBe("2026-05-04T05:20:00.000Z");
  });

  it("roll over days, months and years", () => {
    expect(next("0 0 1 1 *", "2026-05-04T10:00:00Z", "UTC")).toBe("2027-01-01T00:00:00.000Z");
    expect(next("30 6 31 * *", "2026-04-01T00:00:00Z", "UTC")).toBe("2026-05-31T06:30:00.000Z");
    expect(next("0 0 29 2 *", "2026-03-01T00:00:00Z", "UTC")).toBe("2028-02-29T00:00:00.000Z");
    expect(next("0 0 29 2 *", "2096-03-01T00:00:00Z", "UTC")).toBe("2104-02-29T00:00:00.000Z");
  });

  it("keep to week days; 0 and 7 are Sunday", () => {
    expect(next("0 12 * * 1-5", "2026-05-08T12:00:00Z", "UTC")).toBe("2026-05-11T12:00:00.000Z");
    expect(next("0 8 * * 0", "2026-05-08T00:00:00Z", "UTC")).toBe("2026-05-10T08:00:00.000Z");
    expect(next("0 8 * * 7", "2026-05-08T00:00:00Z", "UTC")).toBe("2026-05-10T08:00:00.000Z");
  });

  it("match either day field when both are given", () => {
    // The 13th or a Friday: Friday 2026-02-06, then Friday the 13th, then Friday the 20th.
    expect(dueBetween("0 0 13 * 5", "UTC", "2026-02-01T00:00:00Z", "2026-02-21T00:00:00Z")).toEqual([
      "2026-02-06T00:00:00.000Z",
      "2026-02-13T00:00:00.000Z",
      "2026-02-20T00:00:00.000Z",
    ]);
    // A 30 February never comes, the Mondays of February do.
    expect(next("0 0 30 2 1", "2026-01-01T00:00:00Z", "UTC")).toBe("2026-02-02T00:00:00.000Z");
  });
});

describe("due times in Europe/Brussels", () => {
  it("follow the zone's offset in winter and summer", () => {
    expect(next("0 9 * * *", "2026-01-10T00:00:00Z")).toBe("2026-01-10T08:00:00.000Z");
    expect(next("0 9 * * *", "2026-07-10T00:00:00Z")).toBe("2026-07-10T07:00:00.000Z");
    // Midnight there is the evening before in UTC.
    expect(next("0 0 1 * *", "2026-06-15T00:00:00Z")).toBe("2026-06-30T22:00:00.000Z");
  });

  it("run a daily 02:30 once on the spring-forward day, at the first valid time after it (03:00 CEST)", () => {
    expect(dueBetween("30 2 * * *", "Europe/Brussels", "2026-03-27T00:00:00Z", "2026-03-31T00:00:00Z")).toEqual([
      "2026-03-27T01:30:00.000Z", // 02:30 CET
      "2026-03-28T01:30:00.000Z",
      "2026-03-29T01:00:00.000Z", // 02:30 does not exist: 03:00 CEST
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
    // 02:00 and 03:00 on that day are the same instant: due once.
    expect(dueBetween("0 2,3 * * *", "Europe/Brussels", "2026-03-29T00:00:00Z", "2026-03-29T03:00:00Z")).toEqual(["2026-03-29T01:00:00.000Z"]);
  });

  it("run a daily 02:30 once on the fall-back day (its first occurrence), not twice", () => {
    expect(dueBetween("30 2 * * *", "Europe/Brussels", "2026-10-24T00:00:00Z", "2026-10-27T00:00:00Z")).toEqual([
      "2026-10-24T00:30:00.000Z", // 02:30 CEST
      "2026-10-25T00:30:00.000Z", // the first 02:30 (CEST)
      "2026-10-26T01:30:00.000Z", // 02:30 CET
    ]);
    // From within the repeated hour (the second 02:15), and right after the first 02:30 fired.
    expect(next("30 2 * * *", "2026-10-25T01:15:00Z")).toBe("2026-10-26T01:30:00.000Z");
    expect(next("30 2 * * *", "2026-10-25T00:30:00Z")).toBe("2026-10-26T01:30:00.000Z");
  });

  it("keep the app's nightly jobs (03:15, 03:40, 03:45, 04:25) at their wall-clock time on both change days", () => {
    expect(dueBetween("15 3 * * *", "Europe/Brussels", "2026-03-28T00:00:00Z", "2026-03-30T00:00:00Z")).toEqual(["2026-03-28T02:15:00.000Z", "2026-03-29T01:15:00.000Z"]);
    expect(dueBetween("15 3 * * *", "Europe/Brussels", "2026-10-24T00:00:00Z", "2026-10-26T00:00:00Z")).toEqual(["2026-10-24T01:15:00.000Z", "2026-10-25T02:15:00.000Z"]);
    expect(dueBetween("25 4 * * *", "Europe/Brussels", "2026-10-24T00:00:00Z", "2026-10-26T00:00:00Z")).toEqual(["2026-10-24T02:25:00.000Z", "2026-10-25T03:25:00.000Z"]);
  });

  it("keep a job with * or a step in its minute or hour to the real clock: none in the skipped hour, one at each occurrence of a repeated time", () => {
    expect(dueBetween("0 * * * *", "Europe/Brussels", "2026-03-28T23:30:00Z", "2026-03-29T03:00:00Z")).toEqual([
      "2026-03-29T00:00:00.000Z", // 01:00 CET
      "2026-03-29T01:00:00.000Z", // 03:00 CEST (02:00 does not exist)
      "2026-03-29T02:00:00.000Z", // 04:00 CEST
    ]);
    expect(dueBetween("0 * * * *", "Europe/Brussels", "2026-10-24T23:30:00Z", "2026-10-25T04:00:00Z")).toEqual([
      "2026-10-25T00:00:00.000Z", // 02:00 CEST
      "2026-10-25T01:00:00.000Z", // 02:00 CET
      "2026-10-25T02:00:00.000Z", // 03:00 CET
      "2026-10-25T03:00:00.000Z",
    ]);
    expect(dueBetween("*/15 2 * * *", "Europe/Brussels", "2026-03-28T23:00:00Z", "2026-03-30T01:00:00Z")).toEqual([
      "2026-03-30T00:00:00.000Z",
      "2026-03-30T00:15:00.000Z",
      "2026-03-30T00:30:00.000Z",
      "2026-03-30T00:45:00.000Z",
    ]);
  });
});

describe("due times in other zones", () => {
  it("follow New York's changes", () => {
    expect(dueBetween("30 2 * * *", "America/New_York", "2026-03-07T00:00:00Z", "2026-03-10T00:00:00Z")).toEqual([
      "2026-03-07T07:30:00.000Z", // 02:30 EST
      "2026-03-08T07:00:00.000Z", // 03:00 EDT
      "2026-03-09T06:30:00.000Z", // 02:30 EDT
    ]);
    expect(dueBetween("30 1 * * *", "America/New_York", "2026-10-31T00:00:00Z", "2026-11-03T00:00:00Z")).toEqual([
      "2026-10-31T05:30:00.000Z", // 01:30 EDT
      "2026-11-01T05:30:00.000Z", // the first 01:30 (EDT)
      "2026-11-02T06:30:00.000Z", // 01:30 EST
    ]);
  });

  it("handle half-hour offsets and changes, and the southern hemisphere", () => {
    // Adelaide is 10:30 ahead of UTC in its summer.
    expect(next("0 9 * * *", "2026-01-09T12:00:00Z", "Australia/Adelaide")).toBe("2026-01-09T22:30:00.000Z");
    // Sydney moves forward on 2026-10-04 at 02:00 (AEST +10 to AEDT +11).
    expect(dueBetween("30 2 * * *", "Australia/Sydney", "2026-10-02T12:00:00Z", "2026-10-05T12:00:00Z")).toEqual([
      "2026-10-02T16:30:00.000Z",
      "2026-10-03T16:00:00.000Z", // 03:00 AEDT
      "2026-10-04T15:30:00.000Z",
    ]);
    // Lord Howe Island moves its clocks by half an hour (02:00 to 02:30 on 2026-10-04): 02:15 is due at 02:30.
    expect(next("15 2 * * *", "2026-10-03T12:00:00Z", "Australia/Lord_Howe")).toBe("2026-10-03T15:30:00.000Z");
  });
});
