import { describe, expect, it } from "vitest";
import { TimeMeasure } from "~/db/enums";
import { localInstant } from "~/lib/dates";
import { generationWindow, isOccurrence, occurrenceDates, type Recurrence, TASK_HORIZON_DAYS } from "./recurrence";

const BXL = "Europe/Brussels";
const rule = (startDate: string, endDate: string, occurrenceUnit: TimeMeasure, occurrenceInterval: number | null = 1): Recurrence => ({
  startDate,
  endDate,
  occurrenceUnit,
  occurrenceInterval,
});
const iso = (d: Date) => d.toISOString();

describe("occurrenceDates: days and weeks", () => {
  it("counts every N days from the start date, whatever the range asked", () => {
    const every3 = rule("2026-01-01", "2026-12-31", TimeMeasure.DAY, 3);
    expect(occurrenceDates(every3, "2026-01-01", "2026-01-10")).toEqual(["2026-01-01", "2026-01-04", "2026-01-07", "2026-01-10"]);
    // A range starting between two occurrences starts at the next one, on the start date's rhythm.
    expect(occurrenceDates(every3, "2026-01-05", "2026-01-12")).toEqual(["2026-01-07", "2026-01-10"]);
    expect(occurrenceDates(every3, "2025-12-01", "2026-01-02")).toEqual(["2026-01-01"]);
  });

  it("keeps the weekday every 2 weeks across the change to summer time and back (Brussels)", () => {
    // Sunday 2026-03-29 and Sunday 2026-10-25 are the last Sundays of March and October.
    const fortnightly = rule("2026-03-15", "2026-11-30", TimeMeasure.WEEK, 2);
    const dates = occurrenceDates(fortnightly, "2026-03-01", "2026-04-30");
    expect(dates).toEqual(["2026-03-15", "2026-03-29", "2026-04-12", "2026-04-26"]);
    expect(occurrenceDates(fortnightly, "2026-10-01", "2026-11-30")).toEqual(["2026-10-11", "2026-10-25", "2026-11-08", "2026-11-22"]);
    for (const day of [...dates, "2026-10-25"]) expect(new Date(`${day}T00:00:00Z`).getUTCDay()).toBe(0);
  });

  it("stops at an end date inside a period, and starts no earlier than the start date", () => {
    const weekly = rule("2026-02-02", "2026-02-20", TimeMeasure.WEEK);
    expect(occurrenceDates(weekly, "2026-01-01", "2026-12-31")).toEqual(["2026-02-02", "2026-02-09", "2026-02-16"]);
    expect(occurrenceDates(rule("2026-02-02", "2026-02-16", TimeMeasure.WEEK), "2026-02-10", "2026-03-01")).toEqual(["2026-02-16"]);
    expect(occurrenceDates(weekly, "2026-02-21", "2026-12-31")).toEqual([]);
  });
});

describe("occurrenceDates: months and years", () => {
  it("puts 'every month from the 31st' on the last day of shorter months and goes back to the 31st", () => {
    const monthly = rule("2026-01-31", "2027-01-31", TimeMeasure.MONTH);
    expect(occurrenceDates(monthly, "2026-01-01", "2026-08-31")).toEqual([
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
      "2026-05-31",
      "2026-06-30",
      "2026-07-31",
      "2026-08-31",
    ]);
    // In a leap year February has its 29th.
    expect(occurrenceDates(rule("2027-12-31", "2028-12-31", TimeMeasure.MONTH), "2028-02-01", "2028-03-31")).toEqual(["2028-02-29", "2028-03-31"]);
    // Asked from the middle, the anchor is still the start date.
    expect(occurrenceDates(monthly, "2026-04-01", "2026-05-31")).toEqual(["2026-04-30", "2026-05-31"]);
  });

  it("counts every N months from the start date", () => {
    const quarterly = rule("2026-01-15", "2027-12-31", TimeMeasure.MONTH, 3);
    expect(occurrenceDates(quarterly, "2026-02-01", "2027-02-01")).toEqual(["2026-04-15", "2026-07-15", "2026-10-15", "2027-01-15"]);
    const every5 = rule("2026-08-31", "2028-12-31", TimeMeasure.MONTH, 5);
    expect(occurrenceDates(every5, "2026-01-01", "2027-12-31")).toEqual(["2026-08-31", "2027-01-31", "2027-06-30", "2027-11-30"]);
  });

  it("puts February 29 yearly on February 28 in the years without one", () => {
    const yearly = rule("2028-02-29", "2033-12-31", TimeMeasure.YEAR);
    expect(occurrenceDates(yearly, "2028-01-01", "2033-12-31")).toEqual(["2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29", "2033-02-28"]);
    const everyOther = rule("2026-06-01", "2032-12-31", TimeMeasure.YEAR, 2);
    expect(occurrenceDates(everyOther, "2027-01-01", "2032-12-31")).toEqual(["2028-06-01", "2030-06-01", "2032-06-01"]);
  });
});

describe("occurrenceDates: once", () => {
  it("falls due once on the start date when the plan has no occurrence", () => {
    const once = rule("2026-05-10", "2026-12-31", TimeMeasure.UNSPECIFIED, null);
    expect(occurrenceDates(once, "2026-01-01", "2026-12-31")).toEqual(["2026-05-10"]);
    expect(occurrenceDates(once, "2026-05-11", "2026-12-31")).toEqual([]);
    expect(isOccurrence(once, "2026-05-10")).toBe(true);
    expect(isOccurrence(once, "2026-05-11")).toBe(false);
  });

  it("reads a missing interval as 1", () => {
    expect(occurrenceDates(rule("2026-01-01", "2026-01-03", TimeMeasure.DAY, null), "2026-01-01", "2026-01-31")).toEqual(["2026-01-01", "2026-01-02", "2026-01-03"]);
  });

  it("tells whether a day is an occurrence", () => {
    const monthly = rule("2026-01-31", "2026-12-31", TimeMeasure.MONTH);
    expect(isOccurrence(monthly, "2026-02-28")).toBe(true);
    expect(isOccurrence(monthly, "2026-03-28")).toBe(false);
    expect(isOccurrence(monthly, "2026-03-31")).toBe(true);
    expect(isOccurrence(rule("2026-01-01", "2026-01-31", TimeMeasure.WEEK), "2026-02-05")).toBe(false);
  });
});

describe("local due times in the entity's zone", () => {
  it("keeps 08:00 at 08:00 Brussels time across the last Sundays of March and October", () => {
    expect(iso(localInstant("2026-03-28", "08:00:00", BXL))).toBe("2026-03-28T07:00:00.000Z");
    expect(iso(localInstant("2026-03-29", "08:00:00", BXL))).toBe("2026-03-29T06:00:00.000Z");
    expect(iso(localInstant("2026-10-24", "08:00", BXL))).toBe("2026-10-24T06:00:00.000Z");
    expect(iso(localInstant("2026-10-25", "08:00", BXL))).toBe("2026-10-25T07:00:00.000Z");
  });

  it("puts a skipped time after the change, and a repeated time at its first occurrence", () => {
    // 02:30 does not exist on 2026-03-29 in Brussels: it is 03:30 summer time.
    expect(iso(localInstant("2026-03-29", "02:30", BXL))).toBe("2026-03-29T01:30:00.000Z");
    // 02:30 happens twice on 2026-10-25: the first, still in summer time.
    expect(iso(localInstant("2026-10-25", "02:30", BXL))).toBe("2026-10-25T00:30:00.000Z");
  });

  it("reads a day without a time as its first instant", () => {
    expect(iso(localInstant("2026-07-01", null, BXL))).toBe("2026-06-30T22:00:00.000Z");
  });

  it("follows a change of the entity's zone: the same due date and time, another instant and another today", () => {
    expect(iso(localInstant("2026-01-15", "08:00", "America/New_York"))).toBe("2026-01-15T13:00:00.000Z");
    expect(iso(localInstant("2026-01-15", "08:00", BXL))).toBe("2026-01-15T07:00:00.000Z");
    // 23:30 UTC on January 14: already the 15th in Brussels, still the 14th in New York.
    const at = Date.parse("2026-01-14T23:30:00Z");
    expect(generationWindow(at, BXL)).toEqual({ from: "2026-01-15", to: "2026-04-15" });
    expect(generationWindow(at, "America/New_York")).toEqual({ from: "2026-01-14", to: "2026-04-14" });
    expect(TASK_HORIZON_DAYS).toBe(90);
  });
});
