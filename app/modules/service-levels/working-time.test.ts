import { describe, expect, it } from "vitest";
import type { ClockRun, OpeningInterval, WorkingCalendar } from "./calendar";
import { belgianPublicHolidays } from "./holidays.server";
import { addClockTime, clockMinutesBetween, formatClockTime, hasOpeningHours, isWorkingTime, localDay, parseClockTime, targetState } from "./working-time";

/*
 * Every expected instant below was worked out by hand and is written in UTC, with the local wall time
 * beside it. Brussels is UTC+1 in winter (CET) and UTC+2 in summer (CEST); in 2027 summer time starts on
 * Sunday 28 March at 01:00 UTC (02:00 CET becomes 03:00 CEST: a 23-hour day) and ends on Sunday 31 October
 * at 01:00 UTC (03:00 CEST becomes 02:00 CET: a 25-hour day). New York is UTC-5 (EST) and UTC-4 (EDT);
 * its summer time starts on Sunday 14 March 2027.
 * Weekdays used: Mon 2027-01-11, Wed 01-13, Fri 01-15, Sat 01-16, Mon 01-18; Fri 03-12 and Mon 03-15;
 * Fri 03-26, Sat 03-27, Sun 03-28, Mon 03-29 (Easter Monday); Wed 11-10, Thu 11-11 (Armistice), Mon 11-15.
 */

const BXL = "Europe/Brussels";
const NY = "America/New_York";

const hours = (from: string, to: string): OpeningInterval => ({ opens: parseClockTime(from)!, closes: parseClockTime(to)! });
const weekdays = (...intervals: OpeningInterval[]) => ({ 1: intervals, 2: intervals, 3: intervals, 4: intervals, 5: intervals });
const everyDay = (...intervals: OpeningInterval[]) => ({ ...weekdays(...intervals), 6: intervals, 7: intervals });

const calendar = (timeZone: string, week: WorkingCalendar["week"], closedDays: string[] = []): WorkingCalendar => ({
  timeZone,
  week,
  closedDays: new Set(closedDays),
});

/** Brussels, Monday to Friday 08:00–17:00: the entity of the issue. */
const OFFICE = calendar(BXL, weekdays(hours("08:00", "17:00")));
/** The same with a lunch break: 08:00–12:00 and 13:00–17:00. */
const LUNCH = calendar(BXL, weekdays(hours("08:00", "12:00"), hours("13:00", "17:00")));
/** Brussels, every day of the week 08:00–17:00. */
const DAILY = calendar(BXL, everyDay(hours("08:00", "17:00")));
/** Brussels, open all day every day: the working clock counts every real minute. */
const ALWAYS = calendar(BXL, everyDay(hours("00:00", "24:00")));
/** New York, Monday to Friday 09:00–17:00. */
const NY_OFFICE = calendar(NY, weekdays(hours("09:00", "17:00")));

const at = (iso: string) => new Date(iso);
const add = (start: string, minutes: number, cal: WorkingCalendar = OFFICE) => addClockTime(at(start), minutes, "working", cal).toISOString();
const between = (from: string, to: string, cal: WorkingCalendar = OFFICE) => clockMinutesBetween(at(from), at(to), "working", cal);
const run = (from: string, to: string | null): ClockRun => ({ from: at(from), to: to === null ? null : at(to) });
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe("addClockTime with a working clock: opening hours", () => {
  it("the issue's case: created Friday 16:30 with a 4 working-hour target, due Monday 11:30", () => {
    // Fri 2027-01-15 16:30 CET; 30 min on Friday, 3 h 30 on Monday from 08:00: Mon 2027-01-18 11:30 CET.
    expect(add("2027-01-15T15:30:00.000Z", 240)).toBe("2027-01-18T10:30:00.000Z");
  });

  it("starts inside the hours and ends the same day", () => {
    // Wed 09:00 CET + 2 h = Wed 11:00 CET.
    expect(add("2027-01-13T08:00:00.000Z", 120)).toBe("2027-01-13T10:00:00.000Z");
  });

  it("starts before opening: counts from 08:00", () => {
    // Wed 06:15 CET + 1 h = Wed 09:00 CET.
    expect(add("2027-01-13T05:15:00.000Z", 60)).toBe("2027-01-13T08:00:00.000Z");
  });

  it("starts after closing: counts from the next morning", () => {
    // Wed 18:00 CET + 1 h = Thu 09:00 CET.
    expect(add("2027-01-13T17:00:00.000Z", 60)).toBe("2027-01-14T08:00:00.000Z");
  });

  it("a target reached exactly at closing is due at closing, not at the next opening", () => {
    // Wed 13:00 CET + 4 h = Wed 17:00 CET.
    expect(add("2027-01-13T12:00:00.000Z", 240)).toBe("2027-01-13T16:00:00.000Z");
  });

  it("starts on a Saturday: counts from Monday morning", () => {
    // Sat 2027-01-16 10:00 CET + 30 min = Mon 2027-01-18 08:30 CET.
    expect(add("2027-01-16T09:00:00.000Z", 30)).toBe("2027-01-18T07:30:00.000Z");
  });

  it("40 working hours from Monday 08:00: four 9-hour days and 4 hours on Friday", () => {
    // Mon 2027-01-11 08:00 CET; Mon–Thu 36 h; Fri 08:00 + 4 h = Fri 2027-01-15 12:00 CET.
    expect(add("2027-01-11T07:00:00.000Z", 40 * 60)).toBe("2027-01-15T11:00:00.000Z");
  });

  it("a year of working hours: 52 weeks of 45 hours end on the last Friday of 2027 at 17:00", () => {
    // Mon 2027-01-04 08:00 CET + 52 × 45 h; the 52nd week is Mon 12-27 .. Fri 12-31: Fri 2027-12-31 17:00 CET.
    expect(add("2027-01-04T07:00:00.000Z", 52 * 45 * 60)).toBe("2027-12-31T16:00:00.000Z");
  });

  it("a zero target is due where it starts, even outside the hours", () => {
    expect(add("2027-01-16T09:00:00.000Z", 0)).toBe("2027-01-16T09:00:00.000Z");
  });

  it("a calendar clock ignores the opening hours", () => {
    // Fri 16:30 CET + 4 h = Fri 20:30 CET.
    expect(addClockTime(at("2027-01-15T15:30:00.000Z"), 240, "calendar", OFFICE).toISOString()).toBe("2027-01-15T19:30:00.000Z");
  });
});

describe("closed days, weekends and public holidays", () => {
  it("skips the weekend and Easter Monday (a closed day), across the spring change", () => {
    // Fri 2027-03-26 16:00 CET: 1 h on Friday; Sat, Sun, Mon 03-29 (Easter Monday) closed; Tue 08:00 CEST + 3 h
    // = Tue 2027-03-30 11:00 CEST.
    const easter = calendar(BXL, OFFICE.week, ["2027-03-29"]);
    expect(add("2027-03-26T15:00:00.000Z", 240, easter)).toBe("2027-03-30T09:00:00.000Z");
  });

  it("crosses several days, a holiday and a weekend", () => {
    // Wed 2027-11-10 10:00 CET: 7 h; Thu 11-11 (Armistice) closed; Fri 9 h; Sat, Sun; Mon 08:00 + 4 h
    // = Mon 2027-11-15 12:00 CET. 20 h in all.
    const armistice = calendar(BXL, OFFICE.week, ["2027-11-11"]);
    expect(add("2027-11-10T09:00:00.000Z", 20 * 60, armistice)).toBe("2027-11-15T11:00:00.000Z");
    expect(between("2027-11-10T09:00:00.000Z", "2027-11-15T11:00:00.000Z", armistice)).toBe(20 * 60);
  });

  it("closes on the holidays date-holidays gives: the week of Ascension (Thursday 2027-05-06) has 36 hours", () => {
    const holidays = belgianPublicHolidays(2027, "en").map((h) => h.day);
    const belgian = calendar(BXL, OFFICE.week, holidays);
    // Mon 2027-05-03 00:00 CEST to Mon 2027-05-10 00:00 CEST: four open days of 9 hours.
    expect(between("2027-05-02T22:00:00.000Z", "2027-05-09T22:00:00.000Z", belgian)).toBe(36 * 60);
  });

  it("a day listed as closed that is a weekend changes nothing", () => {
    const sunday = calendar(BXL, OFFICE.week, ["2027-01-17"]);
    expect(add("2027-01-15T15:30:00.000Z", 240, sunday)).toBe("2027-01-18T10:30:00.000Z");
  });
});

describe("split days: a lunch break", () => {
  it("pauses over lunch", () => {
    // Wed 11:00 CET: 1 h until 12:00, 1 h from 13:00 = Wed 14:00 CET.
    expect(add("2027-01-13T10:00:00.000Z", 120, LUNCH)).toBe("2027-01-13T13:00:00.000Z");
  });

  it("started during lunch counts from 13:00", () => {
    // Wed 12:30 CET + 30 min = Wed 13:30 CET.
    expect(add("2027-01-13T11:30:00.000Z", 30, LUNCH)).toBe("2027-01-13T12:30:00.000Z");
  });

  it("a target reached at 12:00 is due at 12:00, not at 13:00", () => {
    expect(add("2027-01-13T09:00:00.000Z", 120, LUNCH)).toBe("2027-01-13T11:00:00.000Z");
  });

  it("a whole day counts 8 hours", () => {
    // Wed 07:00 CET to Wed 18:00 CET.
    expect(between("2027-01-13T06:00:00.000Z", "2027-01-13T17:00:00.000Z", LUNCH)).toBe(480);
  });
});

describe("clockMinutesBetween", () => {
  it("Friday 16:30 to Monday 11:30 is 4 working hours", () => {
    expect(between("2027-01-15T15:30:00.000Z", "2027-01-18T10:30:00.000Z")).toBe(240);
  });

  it("a weekend counts nothing on a working clock, everything on a calendar clock", () => {
    // Sat 2027-01-16 10:00 CET to Sun 20:00 CET: 34 hours.
    expect(between("2027-01-16T09:00:00.000Z", "2027-01-17T19:00:00.000Z")).toBe(0);
    expect(clockMinutesBetween(at("2027-01-16T09:00:00.000Z"), at("2027-01-17T19:00:00.000Z"), "calendar", OFFICE)).toBe(34 * 60);
  });

  it("is 0 when `to` is not after `from`, on both clocks", () => {
    expect(between("2027-01-13T12:00:00.000Z", "2027-01-13T10:00:00.000Z")).toBe(0);
    expect(between("2027-01-13T12:00:00.000Z", "2027-01-13T12:00:00.000Z")).toBe(0);
    expect(clockMinutesBetween(at("2027-01-13T12:00:00.000Z"), at("2027-01-13T10:00:00.000Z"), "calendar", OFFICE)).toBe(0);
  });

  it("counts seconds as fractions of a minute", () => {
    // Fri 16:30:30 CET to Mon 08:00 CET: 29 min 30 s.
    expect(between("2027-01-15T15:30:30.000Z", "2027-01-18T07:00:00.000Z")).toBe(29.5);
  });

  it("a year of Mondays to Fridays without holidays: 52 weeks of 45 hours", () => {
    // Mon 2027-01-04 00:00 CET to Mon 2028-01-03 00:00 CET, both daylight-saving changes inside.
    expect(between("2027-01-03T23:00:00.000Z", "2028-01-02T23:00:00.000Z")).toBe(52 * 45 * 60);
  });
});

describe("daylight-saving changes in Brussels", () => {
  it("the 23-hour day keeps its 9 opening hours", () => {
    // Sun 2027-03-28 00:00 CET to Mon 00:00 CEST.
    expect(between("2027-03-27T23:00:00.000Z", "2027-03-28T22:00:00.000Z", DAILY)).toBe(9 * 60);
  });

  it("the 25-hour day keeps its 9 opening hours", () => {
    // Sun 2027-10-31 00:00 CEST to Mon 00:00 CET.
    expect(between("2027-10-30T22:00:00.000Z", "2027-10-31T23:00:00.000Z", DAILY)).toBe(9 * 60);
  });

  it("a working target across the spring change opens at 08:00 summer time", () => {
    // Sat 2027-03-27 16:00 CET: 1 h; Sun 08:00 CEST + 1 h = Sun 2027-03-28 09:00 CEST.
    expect(add("2027-03-27T15:00:00.000Z", 120, DAILY)).toBe("2027-03-28T07:00:00.000Z");
  });

  it("a working target across the autumn change opens at 08:00 winter time", () => {
    // Sat 2027-10-30 16:00 CEST: 1 h; Sun 08:00 CET + 1 h = Sun 2027-10-31 09:00 CET.
    expect(add("2027-10-30T14:00:00.000Z", 120, DAILY)).toBe("2027-10-31T08:00:00.000Z");
  });

  it("an interval over the whole day counts real time: 23 hours in spring, 25 in autumn", () => {
    expect(between("2027-03-27T23:00:00.000Z", "2027-03-28T22:00:00.000Z", ALWAYS)).toBe(23 * 60);
    expect(between("2027-10-30T22:00:00.000Z", "2027-10-31T23:00:00.000Z", ALWAYS)).toBe(25 * 60);
  });

  it("three real hours from midnight on the change days end at 04:00 summer time and at the second 02:00", () => {
    // Spring: 00:00 CET + 3 h real = 04:00 CEST. Autumn: 00:00 CEST + 3 h real = 02:00 CET (02:00 comes twice).
    expect(add("2027-03-27T23:00:00.000Z", 180, ALWAYS)).toBe("2027-03-28T02:00:00.000Z");
    expect(add("2027-10-30T22:00:00.000Z", 180, ALWAYS)).toBe("2027-10-31T01:00:00.000Z");
  });

  it("an interval the spring change skips counts nothing; the repeated hour in autumn counts twice", () => {
    const night = calendar(BXL, { 7: [hours("02:00", "03:00")] });
    // Sun 2027-03-28: 02:00–03:00 does not exist.
    expect(between("2027-03-27T23:00:00.000Z", "2027-03-28T22:00:00.000Z", night)).toBe(0);
    // Sun 2027-10-31: from the first 02:00 (00:00 UTC) to 03:00 CET (02:00 UTC): 2 hours.
    expect(between("2027-10-30T22:00:00.000Z", "2027-10-31T23:00:00.000Z", night)).toBe(120);
  });

  it("an interval that opens inside the skipped hour opens at the change", () => {
    // Sun 2027-03-28 02:30–05:00: opens when 02:00 CET becomes 03:00 CEST (01:00 UTC), closes 05:00 CEST.
    const early = calendar(BXL, { 7: [hours("02:30", "05:00")] });
    expect(between("2027-03-27T23:00:00.000Z", "2027-03-28T22:00:00.000Z", early)).toBe(120);
    expect(add("2027-03-27T23:00:00.000Z", 30, early)).toBe("2027-03-28T01:30:00.000Z");
  });

  it("a calendar clock counts real time: 24 hours across the spring change read one hour later on the wall", () => {
    // Sat 2027-03-27 12:00 CET + 24 h = Sun 2027-03-28 13:00 CEST.
    expect(addClockTime(at("2027-03-27T11:00:00.000Z"), 24 * 60, "calendar", OFFICE).toISOString()).toBe("2027-03-28T11:00:00.000Z");
  });

  it("a calendar clock across the autumn change reads one hour earlier on the wall", () => {
    // Sat 2027-10-30 12:00 CEST + 24 h = Sun 2027-10-31 11:00 CET.
    expect(addClockTime(at("2027-10-30T10:00:00.000Z"), 24 * 60, "calendar", OFFICE).toISOString()).toBe("2027-10-31T10:00:00.000Z");
    expect(clockMinutesBetween(at("2027-10-30T10:00:00.000Z"), at("2027-10-31T10:00:00.000Z"), "calendar", OFFICE)).toBe(1440);
  });
});

describe("another time zone: New York", () => {
  it("reads opening hours in New York time, across its own spring change", () => {
    // Fri 2027-03-12 16:00 EST: 1 h; Mon 2027-03-15 09:00 EDT + 1 h = 10:00 EDT.
    expect(add("2027-03-12T21:00:00.000Z", 120, NY_OFFICE)).toBe("2027-03-15T14:00:00.000Z");
  });

  it("the same instant is closed in Brussels and open in New York", () => {
    // 2027-01-13 15:00 UTC: 16:00 in Brussels, 10:00 in New York: both open.
    expect(isWorkingTime(at("2027-01-13T15:00:00.000Z"), OFFICE)).toBe(true);
    expect(isWorkingTime(at("2027-01-13T15:00:00.000Z"), NY_OFFICE)).toBe(true);
    // 17:30 UTC: 18:30 in Brussels (closed), 12:30 in New York (open).
    expect(isWorkingTime(at("2027-01-13T17:30:00.000Z"), OFFICE)).toBe(false);
    expect(isWorkingTime(at("2027-01-13T17:30:00.000Z"), NY_OFFICE)).toBe(true);
    // Opening is inside, closing is outside.
    expect(isWorkingTime(at("2027-01-13T07:00:00.000Z"), OFFICE)).toBe(true);
    expect(isWorkingTime(at("2027-01-13T16:00:00.000Z"), OFFICE)).toBe(false);
  });
});

describe("a calendar without opening hours", () => {
  const closed = calendar(BXL, { 1: [], 6: [] });

  it("throws a clear error for a working target, counts nothing, and leaves the calendar clock alone", () => {
    expect(hasOpeningHours(closed)).toBe(false);
    expect(hasOpeningHours(OFFICE)).toBe(true);
    expect(() => add("2027-01-13T08:00:00.000Z", 60, closed)).toThrow(/no opening hours/);
    expect(between("2027-01-13T08:00:00.000Z", "2027-02-13T08:00:00.000Z", closed)).toBe(0);
    expect(addClockTime(at("2027-01-13T08:00:00.000Z"), 60, "calendar", closed).toISOString()).toBe("2027-01-13T09:00:00.000Z");
  });

  it("a working target on it never runs: no due date, never breached", () => {
    const state = targetState([run("2027-01-13T08:00:00.000Z", null)], 60, "working", closed, at("2027-01-20T08:00:00.000Z"));
    expect(state).toEqual({ elapsedMinutes: 0, remainingMinutes: 60, running: true, due: null, breached: false, breachedAt: null });
  });
});

describe("targetState", () => {
  it("a running clock not yet breached: due when the rest of the target has run", () => {
    // Wed 09:00 CET to now, Wed 11:00 CET: 2 h of 4; due Wed 13:00 CET.
    const state = targetState([run("2027-01-13T08:00:00.000Z", null)], 240, "working", OFFICE, at("2027-01-13T10:00:00.000Z"));
    expect(state.elapsedMinutes).toBe(120);
    expect(state.remainingMinutes).toBe(120);
    expect(state.running).toBe(true);
    expect(iso(state.due)).toBe("2027-01-13T12:00:00.000Z");
    expect(state.breached).toBe(false);
    expect(state.breachedAt).toBeNull();
  });

  it("the issue's case as a running clock: due Monday 11:30", () => {
    // Created Fri 16:30 CET, now Fri 16:45 CET: 15 min run, 3 h 45 left: Mon 08:00 + 3 h 45 = 11:30 CET.
    const state = targetState([run("2027-01-15T15:30:00.000Z", null)], 240, "working", OFFICE, at("2027-01-15T15:45:00.000Z"));
    expect(state.elapsedMinutes).toBe(15);
    expect(iso(state.due)).toBe("2027-01-18T10:30:00.000Z");
  });

  // Stopped and resumed: Mon 2027-01-11 09:00–10:00 CET (1 h); rejected; reopened Mon 15:00, rejected Tue 09:00
  // (Mon 15–17 and Tue 08–09: 3 h); reopened Tue 14:00 and still running; now Tue 15:00 (1 h). 5 h in all.
  const resumed = [
    run("2027-01-11T08:00:00.000Z", "2027-01-11T09:00:00.000Z"),
    run("2027-01-11T14:00:00.000Z", "2027-01-12T08:00:00.000Z"),
    run("2027-01-12T13:00:00.000Z", null),
  ];
  const tuesday15 = at("2027-01-12T14:00:00.000Z");

  it("stopped and resumed: sums the runs, due from now with what is left", () => {
    // Target 8 h: 3 h left from Tue 15:00 CET: 2 h until 17:00, 1 h Wednesday: Wed 09:00 CET.
    const state = targetState(resumed, 480, "working", OFFICE, tuesday15);
    expect(state.elapsedMinutes).toBe(300);
    expect(state.remainingMinutes).toBe(180);
    expect(iso(state.due)).toBe("2027-01-13T08:00:00.000Z");
    expect(state.breached).toBe(false);
  });

  it("stopped and resumed: the breach instant lies inside the run that reached the target", () => {
    // Target 200 min: 60 in the first run, 140 more in the second: Mon 15–17 (120), Tue 08:00 + 20 = 08:20 CET.
    const state = targetState(resumed, 200, "working", OFFICE, tuesday15);
    expect(state.breached).toBe(true);
    expect(iso(state.breachedAt)).toBe("2027-01-12T07:20:00.000Z");
    expect(iso(state.due)).toBe("2027-01-12T07:20:00.000Z");
    expect(state.elapsedMinutes).toBe(300);
    expect(state.remainingMinutes).toBe(0);
  });

  it("a stopped clock has no due date, whether breached or not", () => {
    const monday = run("2027-01-11T07:00:00.000Z", "2027-01-11T16:00:00.000Z"); // Mon 08:00–17:00 CET
    const notYet = targetState([resumed[0]], 240, "working", OFFICE, at("2027-01-13T10:00:00.000Z"));
    expect(notYet).toEqual({ elapsedMinutes: 60, remainingMinutes: 180, running: false, due: null, breached: false, breachedAt: null });
    const late = targetState([monday], 240, "working", OFFICE, at("2027-01-13T10:00:00.000Z"));
    // 4 h from Mon 08:00 CET: breached at Mon 12:00 CET.
    expect(late).toEqual({ elapsedMinutes: 540, remainingMinutes: 0, running: false, due: null, breached: true, breachedAt: at("2027-01-11T11:00:00.000Z") });
  });

  it("reached at closing and looked at in the evening: breached since 17:00", () => {
    // Wed 13:00 CET, target 4 h, now Wed 18:00 CET.
    const state = targetState([run("2027-01-13T12:00:00.000Z", null)], 240, "working", OFFICE, at("2027-01-13T17:00:00.000Z"));
    expect(state.elapsedMinutes).toBe(240);
    expect(state.breached).toBe(true);
    expect(iso(state.breachedAt)).toBe("2027-01-13T16:00:00.000Z");
    expect(iso(state.due)).toBe("2027-01-13T16:00:00.000Z");
  });

  it("a zero target is breached as soon as its clock starts", () => {
    // Sat 10:00 CET, now Sat 11:00 CET.
    const state = targetState([run("2027-01-16T09:00:00.000Z", null)], 0, "working", OFFICE, at("2027-01-16T10:00:00.000Z"));
    expect(state).toEqual({
      elapsedMinutes: 0,
      remainingMinutes: 0,
      running: true,
      due: at("2027-01-16T09:00:00.000Z"),
      breached: true,
      breachedAt: at("2027-01-16T09:00:00.000Z"),
    });
  });

  it("no run at all: nothing has run, no due date", () => {
    expect(targetState([], 60, "working", OFFICE, at("2027-01-13T10:00:00.000Z"))).toEqual({
      elapsedMinutes: 0,
      remainingMinutes: 60,
      running: false,
      due: null,
      breached: false,
      breachedAt: null,
    });
  });

  it("overlapping runs count their shared time once", () => {
    // Wed 09:00–11:00 and 10:00–12:00 CET: 09:00–12:00, 3 h.
    const runs = [run("2027-01-13T08:00:00.000Z", "2027-01-13T10:00:00.000Z"), run("2027-01-13T09:00:00.000Z", "2027-01-13T11:00:00.000Z")];
    expect(targetState(runs, 600, "working", OFFICE, at("2027-01-13T15:00:00.000Z")).elapsedMinutes).toBe(180);
  });

  it("a calendar clock across the spring change: 23 real hours from noon to noon", () => {
    // Sat 2027-03-27 12:00 CET to now, Sun 12:00 CEST: 23 h; a 24 h target is due Sun 13:00 CEST.
    const state = targetState([run("2027-03-27T11:00:00.000Z", null)], 1440, "calendar", OFFICE, at("2027-03-28T10:00:00.000Z"));
    expect(state.elapsedMinutes).toBe(23 * 60);
    expect(state.remainingMinutes).toBe(60);
    expect(iso(state.due)).toBe("2027-03-28T11:00:00.000Z");
    expect(state.breached).toBe(false);
  });

  it("a calendar clock stopped and resumed: breached inside the second run", () => {
    // 10:00–11:00 UTC (60), stopped, 12:00 UTC on (target 90: reached at 12:30 UTC); now 13:00 UTC.
    const runs = [run("2027-01-13T10:00:00.000Z", "2027-01-13T11:00:00.000Z"), run("2027-01-13T12:00:00.000Z", null)];
    const state = targetState(runs, 90, "calendar", OFFICE, at("2027-01-13T13:00:00.000Z"));
    expect(state.elapsedMinutes).toBe(120);
    expect(iso(state.breachedAt)).toBe("2027-01-13T12:30:00.000Z");
  });
});

describe("Belgian public holidays (date-holidays)", () => {
  const days2027 = ["2027-01-01", "2027-03-29", "2027-05-01", "2027-05-06", "2027-05-17", "2027-07-21", "2027-08-15", "2027-11-01", "2027-11-11", "2027-12-25"];

  it("2027 in English: ten public holidays, Easter Monday on 29 March", () => {
    const holidays = belgianPublicHolidays(2027, "en");
    expect(holidays.map((h) => h.day)).toEqual(days2027);
    expect(holidays[1]).toEqual({ day: "2027-03-29", name: "Easter Monday" });
    expect(holidays.map((h) => h.name)).toEqual([
      "New Year's Day",
      "Easter Monday",
      "Labour Day",
      "Ascension Day",
      "Whit Monday",
      "National Holiday",
      "Assumption",
      "All Saints' Day",
      "Armistice Day",
      "Christmas Day",
    ]);
  });

  it("2027 in French", () => {
    const holidays = belgianPublicHolidays(2027, "fr");
    expect(holidays.map((h) => h.day)).toEqual(days2027);
    expect(holidays.map((h) => h.name)).toEqual([
      "Nouvel An",
      "Lundi de Pâques",
      "Fête du travail",
      "Ascension",
      "Lundi de Pentecôte",
      "Fête nationale",
      "Assomption",
      "Toussaint",
      "Armistice",
      "Noël",
    ]);
  });

  it("2027 in Dutch", () => {
    const holidays = belgianPublicHolidays(2027, "nl");
    expect(holidays.map((h) => h.day)).toEqual(days2027);
    expect(holidays[1]).toEqual({ day: "2027-03-29", name: "Paasmaandag" });
    expect(holidays.map((h) => h.name)).toContain("Allerheiligen");
    expect(holidays.map((h) => h.name)).toContain("Kerstmis");
  });

  it("the movable feasts follow Easter: 2028 (Easter on 16 April)", () => {
    const days = belgianPublicHolidays(2028, "en").map((h) => h.day);
    expect(days).toHaveLength(10);
    expect(days).toContain("2028-04-17"); // Easter Monday
    expect(days).toContain("2028-05-25"); // Ascension
    expect(days).toContain("2028-06-05"); // Whit Monday
  });
});

describe("helpers", () => {
  it("localDay reads the date in the zone given", () => {
    // 2027-01-15 23:30 UTC: already Saturday in Brussels (00:30), still Friday in New York (18:30).
    expect(localDay(at("2027-01-15T23:30:00.000Z"), BXL)).toBe("2027-01-16");
    expect(localDay(at("2027-01-15T23:30:00.000Z"), NY)).toBe("2027-01-15");
  });

  it("parseClockTime reads HH:MM up to 24:00, and formatClockTime writes it back", () => {
    expect(parseClockTime("08:00")).toBe(480);
    expect(parseClockTime("17:30")).toBe(1050);
    expect(parseClockTime("00:00")).toBe(0);
    expect(parseClockTime("24:00")).toBe(1440);
    for (const bad of ["24:01", "25:00", "8:00", "08:60", "0800", "", "ab:cd"]) expect(parseClockTime(bad), bad).toBeNull();
    expect(formatClockTime(1050)).toBe("17:30");
    expect(formatClockTime(480)).toBe("08:00");
    expect(formatClockTime(1440)).toBe("24:00");
  });
});
