import { describe, expect, it } from "vitest";
import { CronError, instantOf, isTimeZone, nextCronTime, parseCron, wallTime } from "./cron";
import { zoneOffset } from "./dates";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

/** The due times of `cron` in `zone` after `from`, `count` of them, as ISO strings (UTC). */
function dueTimes(cron: string, zone: string, from: string, count: number): string[] {
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < count; i++) {
    t = nextCronTime(cron, t, zone);
    out.push(iso(t));
  }
  return out;
}

/** The due times of `cron` in `zone` in [from, to), as ISO strings (UTC). */
function dueBetween(cron: string, zone: string, from: string, to: string): string[] {
  const out: string[] = [];
  let t = at(from) - 1;
  for (;;) {
    t = nextCronTime(cron, t, zone);
    if (t >= at(to)) return out;
    out.push(iso(t));
  }
}

describe("parseCron", () => {
  it("reads numbers, lists, ranges and steps", () => {
    const c = parseCron(" 0,15-17,*/20  2-8/3 1,15 */4 1-5 ");
    expect(c.source).toBe("0,15-17,*/20 2-8/3 1,15 */4 1-5");
    expect(c.minutes).toEqual([0, 15, 16, 17, 20, 40]);
    expect(c.hours).toEqual([2, 5, 8]);
    expect(c.daysOfMonth).toEqual([1, 15]);
    expect(c.months).toEqual([1, 5, 9]);
    expect(c.daysOfWeek).toEqual([1, 2, 3, 4, 5]);
    expect(c.dayOfMonthRestricted).toBe(true);
    expect(c.dayOfWeekRestricted).toBe(true);
  });

  it("reads `a/s` as from a to the field's end, and 7 as Sunday", () => {
    const c = parseCron("5/15 * * * 5-7");
    expect(c.minutes).toEqual([5, 20, 35, 50]);
    expect(c.daysOfWeek).toEqual([0, 5, 6]);
    expect(c.dayOfMonthRestricted).toBe(false);
    expect(parseCron("0 0 * * 7").daysOfWeek).toEqual([0]);
  });

  it("counts a day field starting with * as unrestricted, as Vixie cron does", () => {
    const c = parseCron("0 0 */2 * 1");
    expect(c.dayOfMonthRestricted).toBe(false);
    expect(c.dayOfWeekRestricted).toBe(true);
  });

  it.each([
    ["", /expected 5 fields/],
    ["* * * *", /expected 5 fields/],
    ["* * * * * *", /expected 5 fields/],
    ["60 * * * *", /minute: 60 is outside 0-59/],
    ["* 24 * * *", /hour: 24 is outside/],
    ["* * 0 * *", /day of month: 0 is outside/],
    ["* * 32 * *", /day of month: 32 is outside/],
    ["* * * 13 *", /month: 13 is outside/],
    ["* * * * 8", /day of week: 8 is outside/],
    ["* * * JAN *", /not a number/],
    ["* * * * MON", /not a number/],
    ["0 0 ? * 1", /not a number/],
    ["0 0 L * *", /not a number/],
    ["0 0 15W * *", /not a number/],
    ["0 0 * * 5#3", /not a number/],
    ["@daily", /expected 5 fields/],
    ["0 22-2 * * *", /runs backwards/],
    ["*/0 * * * *", /step "0"/],
    ["*/x * * * *", /step "x"/],
    ["1/2/3 * * * *", /two steps/],
    ["1-2-3 * * * *", /not a range/],
    ["1,,2 * * * *", /empty list item/],
    ["-1 * * * *", /not a number/],
    ["0 0 30 2 *", /no month has such a day/],
    ["0 0 31 4,6,9,11 *", /no month has such a day/],
  ])("refuses %j", (text, message) => {
    expect(() => parseCron(text)).toThrow(CronError);
    expect(() => parseCron(text)).toThrow(message);
  });

  it("accepts an impossible day of month when the week day can match (either matches)", () => {
    expect(() => parseCron("0 0 30 2 1")).not.toThrow();
    expect(iso(nextCronTime("0 0 30 2 1", at("2026-01-01T00:00:00Z"), "UTC"))).toBe("2026-02-02T00:00:00.000Z");
  });
});

describe("time zones", () => {
  it("knows IANA names and refuses unknown ones", () => {
    expect(isTimeZone("Europe/Brussels")).toBe(true);
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("reads offsets and wall times, summer and winter", () => {
    expect(zoneOffset(at("2026-01-15T12:00:00Z"), "Europe/Brussels")).toBe(3_600_000);
    expect(zoneOffset(at("2026-07-15T12:00:00Z"), "Europe/Brussels")).toBe(7_200_000);
    expect(zoneOffset(at("2026-01-15T12:00:00Z"), "America/New_York")).toBe(-5 * 3_600_000);
    expect(zoneOffset(at("2026-01-15T12:00:00Z"), "Asia/Kolkata")).toBe(5.5 * 3_600_000);
    expect(wallTime("Europe/Brussels", at("2026-12-31T23:30:00Z"))).toEqual({ year: 2027, month: 1, day: 1, hour: 0, minute: 30, second: 0 });
  });

  it("maps wall times to instants: a skipped one to the change, a repeated one to its first occurrence", () => {
    expect(iso(instantOf("Europe/Brussels", 2026, 3, 29, 1, 59))).toBe("2026-03-29T00:59:00.000Z");
    expect(iso(instantOf("Europe/Brussels", 2026, 3, 29, 2, 0))).toBe("2026-03-29T01:00:00.000Z");
    expect(iso(instantOf("Europe/Brussels", 2026, 3, 29, 2, 30))).toBe("2026-03-29T01:00:00.000Z");
    expect(iso(instantOf("Europe/Brussels", 2026, 3, 29, 3, 0))).toBe("2026-03-29T01:00:00.000Z");
    expect(iso(instantOf("Europe/Brussels", 2026, 10, 25, 2, 30))).toBe("2026-10-25T00:30:00.000Z");
    expect(iso(instantOf("Europe/Brussels", 2026, 10, 25, 3, 0))).toBe("2026-10-25T02:00:00.000Z");
    expect(iso(instantOf("America/New_York", 2026, 3, 8, 2, 30))).toBe("2026-03-08T07:00:00.000Z");
    expect(iso(instantOf("America/New_York", 2026, 11, 1, 1, 30))).toBe("2026-11-01T05:30:00.000Z");
    // Lord Howe Island moves its clocks by half an hour.
    expect(iso(instantOf("Australia/Lord_Howe", 2026, 10, 4, 2, 15))).toBe("2026-10-03T15:30:00.000Z");
  });
});

describe("nextCronTime in UTC", () => {
  it("finds the next matching minute, strictly after the given instant", () => {
    expect(iso(nextCronTime("*/15 * * * *", at("2026-05-04T10:07:30Z"), "UTC"))).toBe("2026-05-04T10:15:00.000Z");
    expect(iso(nextCronTime("*/15 * * * *", at("2026-05-04T10:15:00Z"), "UTC"))).toBe("2026-05-04T10:30:00.000Z");
    expect(iso(nextCronTime("*/15 * * * *", at("2026-05-04T10:14:59.999Z"), "UTC"))).toBe("2026-05-04T10:15:00.000Z");
    expect(iso(nextCronTime("* * * * *", at("2026-05-04T23:59:00Z"), "UTC"))).toBe("2026-05-05T00:00:00.000Z");
  });

  it("rolls over days, months and years", () => {
    expect(iso(nextCronTime("0 0 1 1 *", at("2026-05-04T10:00:00Z"), "UTC"))).toBe("2027-01-01T00:00:00.000Z");
    expect(iso(nextCronTime("30 6 31 * *", at("2026-04-01T00:00:00Z"), "UTC"))).toBe("2026-05-31T06:30:00.000Z");
    expect(iso(nextCronTime("0 0 29 2 *", at("2026-03-01T00:00:00Z"), "UTC"))).toBe("2028-02-29T00:00:00.000Z");
    expect(iso(nextCronTime("0 0 29 2 *", at("2096-03-01T00:00:00Z"), "UTC"))).toBe("2104-02-29T00:00:00.000Z");
  });

  it("keeps to week days (Monday to Friday skips the weekend)", () => {
    // 2026-05-08 is a Friday.
    expect(dueTimes("0 12 * * 1-5", "UTC", "2026-05-08T12:00:00Z", 2)).toEqual(["2026-05-11T12:00:00.000Z", "2026-05-12T12:00:00.000Z"]);
    expect(iso(nextCronTime("0 8 * * 0", at("2026-05-08T00:00:00Z"), "UTC"))).toBe("2026-05-10T08:00:00.000Z");
    expect(iso(nextCronTime("0 8 * * 7", at("2026-05-08T00:00:00Z"), "UTC"))).toBe("2026-05-10T08:00:00.000Z");
  });

  it("matches either day field when both are restricted, both when one starts with *", () => {
    // The 13th or a Friday: Friday 2026-02-06, then Friday the 13th, then Friday the 20th.
    expect(dueTimes("0 0 13 * 5", "UTC", "2026-02-01T00:00:00Z", 3)).toEqual([
      "2026-02-06T00:00:00.000Z",
      "2026-02-13T00:00:00.000Z",
      "2026-02-20T00:00:00.000Z",
    ]);
    // Odd days that are Mondays (2026-06-01 is a Monday; the 8th is even; the 15th is odd).
    expect(dueTimes("0 0 */2 * 1", "UTC", "2026-05-31T00:00:00Z", 2)).toEqual(["2026-06-01T00:00:00.000Z", "2026-06-15T00:00:00.000Z"]);
  });

  it("stays quick for an every-minute expression late in the day", () => {
    const started = performance.now();
    for (let i = 0; i < 50; i++) nextCronTime("* * * * *", at("2026-05-04T23:58:30Z") + i, "Europe/Brussels");
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("nextCronTime in Europe/Brussels", () => {
  it("follows the zone's offset in winter and summer", () => {
    expect(iso(nextCronTime("0 9 * * *", at("2026-01-10T00:00:00Z"), "Europe/Brussels"))).toBe("2026-01-10T08:00:00.000Z");
    expect(iso(nextCronTime("0 9 * * *", at("2026-07-10T00:00:00Z"), "Europe/Brussels"))).toBe("2026-07-10T07:00:00.000Z");
    // Midnight local is the evening before in UTC.
    expect(iso(nextCronTime("0 0 1 * *", at("2026-06-15T00:00:00Z"), "Europe/Brussels"))).toBe("2026-06-30T22:00:00.000Z");
  });

  it("runs a daily 02:30 once on the spring-forward day, at the first valid time after it (03:00 CEST)", () => {
    expect(dueBetween("30 2 * * *", "Europe/Brussels", "2026-03-27T00:00:00Z", "2026-03-31T00:00:00Z")).toEqual([
      "2026-03-27T01:30:00.000Z", // 02:30 CET
      "2026-03-28T01:30:00.000Z",
      "2026-03-29T01:00:00.000Z", // 02:30 does not exist: 03:00 CEST
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
  });

  it("runs a daily 02:30 once on the fall-back day (its first occurrence), not twice", () => {
    expect(dueBetween("30 2 * * *", "Europe/Brussels", "2026-10-24T00:00:00Z", "2026-10-27T00:00:00Z")).toEqual([
      "2026-10-24T00:30:00.000Z", // 02:30 CEST
      "2026-10-25T00:30:00.000Z", // the first 02:30 (CEST)
      "2026-10-26T01:30:00.000Z", // 02:30 CET
    ]);
    // From within the repeated hour (the second 02:15), the next due time is the next day's.
    expect(iso(nextCronTime("30 2 * * *", at("2026-10-25T01:15:00Z"), "Europe/Brussels"))).toBe("2026-10-26T01:30:00.000Z");
    // Right after the first occurrence fired.
    expect(iso(nextCronTime("30 2 * * *", at("2026-10-25T00:30:00Z"), "Europe/Brussels"))).toBe("2026-10-26T01:30:00.000Z");
  });

  it("gives every time in the skipped hour one due time, at the change", () => {
    expect(dueBetween("*/15 2 * * *", "Europe/Brussels", "2026-03-28T23:00:00Z", "2026-03-30T01:00:00Z")).toEqual([
      "2026-03-29T01:00:00.000Z",
      "2026-03-30T00:00:00.000Z",
      "2026-03-30T00:15:00.000Z",
      "2026-03-30T00:30:00.000Z",
      "2026-03-30T00:45:00.000Z",
    ]);
    // 02:00 and 03:00 on the spring-forward day are the same instant: due once.
    expect(dueBetween("0 2,3 * * *", "Europe/Brussels", "2026-03-29T00:00:00Z", "2026-03-29T03:00:00Z")).toEqual(["2026-03-29T01:00:00.000Z"]);
  });

  it("runs an hourly job once per wall-clock hour across both changes", () => {
    expect(dueBetween("0 * * * *", "Europe/Brussels", "2026-03-28T23:30:00Z", "2026-03-29T03:00:00Z")).toEqual([
      "2026-03-29T00:00:00.000Z", // 01:00 CET
      "2026-03-29T01:00:00.000Z", // 03:00 CEST (02:00 skipped)
      "2026-03-29T02:00:00.000Z", // 04:00 CEST
    ]);
    expect(dueBetween("0 * * * *", "Europe/Brussels", "2026-10-24T23:30:00Z", "2026-10-25T04:00:00Z")).toEqual([
      "2026-10-25T00:00:00.000Z", // 02:00 CEST
      "2026-10-25T02:00:00.000Z", // 03:00 CET (the repeated 02:00 is not run again)
      "2026-10-25T03:00:00.000Z",
    ]);
  });

  it("keeps a time outside the change hour at its wall-clock time on both change days", () => {
    expect(dueBetween("15 3 * * *", "Europe/Brussels", "2026-03-28T00:00:00Z", "2026-03-30T00:00:00Z")).toEqual([
      "2026-03-28T02:15:00.000Z",
      "2026-03-29T01:15:00.000Z",
    ]);
    expect(dueBetween("15 3 * * *", "Europe/Brussels", "2026-10-24T00:00:00Z", "2026-10-26T00:00:00Z")).toEqual([
      "2026-10-24T01:15:00.000Z",
      "2026-10-25T02:15:00.000Z",
    ]);
  });
});

describe("nextCronTime in America/New_York", () => {
  it("runs a daily 02:30 once on the spring-forward day, at 03:00 EDT", () => {
    expect(dueBetween("30 2 * * *", "America/New_York", "2026-03-07T00:00:00Z", "2026-03-10T00:00:00Z")).toEqual([
      "2026-03-07T07:30:00.000Z", // 02:30 EST
      "2026-03-08T07:00:00.000Z", // 03:00 EDT
      "2026-03-09T06:30:00.000Z", // 02:30 EDT
    ]);
  });

  it("runs a daily 01:30 once on the fall-back day", () => {
    expect(dueBetween("30 1 * * *", "America/New_York", "2026-10-31T00:00:00Z", "2026-11-03T00:00:00Z")).toEqual([
      "2026-10-31T05:30:00.000Z", // 01:30 EDT
      "2026-11-01T05:30:00.000Z", // the first 01:30 (EDT)
      "2026-11-02T06:30:00.000Z", // 01:30 EST
    ]);
  });

  it("keeps week-day jobs at their wall-clock time across the changes", () => {
    // 9:00 on weekdays: Friday 2026-03-06 in EST, Monday 2026-03-09 in EDT.
    expect(dueTimes("0 9 * * 1-5", "America/New_York", "2026-03-06T00:00:00Z", 2)).toEqual(["2026-03-06T14:00:00.000Z", "2026-03-09T13:00:00.000Z"]);
    expect(dueTimes("0 9 * * 1-5", "America/New_York", "2026-10-30T00:00:00Z", 2)).toEqual(["2026-10-30T13:00:00.000Z", "2026-11-02T14:00:00.000Z"]);
  });
});

describe("nextCronTime in other zones", () => {
  it("handles half-hour offsets and the southern hemisphere", () => {
    expect(iso(nextCronTime("0 9 * * *", at("2026-01-10T00:00:00Z"), "Asia/Kolkata"))).toBe("2026-01-10T03:30:00.000Z");
    // Sydney moves forward on 2026-10-04 at 02:00 (AEST +10 to AEDT +11).
    expect(dueBetween("30 2 * * *", "Australia/Sydney", "2026-10-02T12:00:00Z", "2026-10-05T12:00:00Z")).toEqual([
      "2026-10-02T16:30:00.000Z",
      "2026-10-03T16:00:00.000Z", // 03:00 AEDT
      "2026-10-04T15:30:00.000Z",
    ]);
  });
});
