import { describe, expect, it } from "vitest";
import { addDays, dateFormats, dayIn, DEFAULT_TIME_ZONE, endOfDay, endOfMonth, isCalendarDay, isSupportedTimeZone, localInstant, startOfDay, startOfMonth, supportedTimeZones, zoneOffset } from "./dates";

const NY = "America/New_York";
const BXL = "Europe/Brussels";
const HOUR = 3_600_000;
/** Intl writes narrow or plain no-break spaces depending on its data: compare with plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
const iso = (d: Date) => d.toISOString();

describe("the time zones an entity may choose", () => {
  it("lists the runtime's IANA zones with UTC and the default, sorted, and knows only those spellings", () => {
    const zones = supportedTimeZones();
    expect(zones).toContain(NY);
    expect(zones).toContain(BXL);
    expect(zones).toContain("UTC");
    expect([...zones].sort()).toEqual(zones);
    expect(DEFAULT_TIME_ZONE).toBe(BXL);
    expect(isSupportedTimeZone(NY)).toBe(true);
    for (const bad of ["Mars/Olympus_Mons", "america/new_york", "", " Europe/Brussels", "+01:00", 42, null]) expect(isSupportedTimeZone(bad), String(bad)).toBe(false);
  });
});

describe("dateFormats: one style per kind, in the zone given", () => {
  it("writes an instant in New York time, the same instant in Brussels time", () => {
    const at = "2026-11-29T06:34:00.000Z";
    const ny = dateFormats("en", NY);
    expect(plain(ny.dateTime(at))).toBe("Nov 29, 2026, 1:34 AM");
    expect(ny.date(at)).toBe("Nov 29, 2026");
    expect(plain(ny.time(at))).toBe("1:34 AM");
    expect(plain(dateFormats("en", BXL).dateTime(at))).toBe("Nov 29, 2026, 7:34 AM");
    expect(plain(dateFormats("fr-BE", BXL).dateTime(new Date(at)))).toBe("29 nov. 2026, 07:34");
    // 04:30 UTC is still the 28th in New York, already the 29th in Brussels.
    expect(dateFormats("en", NY).date("2026-11-29T04:30:00Z")).toBe("Nov 28, 2026");
    expect(dateFormats("en", BXL).date("2026-11-29T04:30:00Z")).toBe("Nov 29, 2026");
  });

  it("writes calendar days and months as they are, whatever the zone", () => {
    for (const zone of [NY, BXL, "Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      expect(dateFormats("en", zone).day("2026-03-08")).toBe("Mar 8, 2026");
      expect(dateFormats("en", zone).month("2026-11")).toBe("November 2026");
    }
    expect(dateFormats("nl-BE", NY).month("2026-03")).toBe("maart 2026");
  });

  it("follows summer time: the same wall-clock hour on both sides of a change is a different UTC hour", () => {
    const ny = dateFormats("en", NY);
    expect(plain(ny.dateTime("2026-03-08T06:30:00Z"))).toBe("Mar 8, 2026, 1:30 AM"); // EST, UTC-5
    expect(plain(ny.dateTime("2026-03-08T07:30:00Z"))).toBe("Mar 8, 2026, 3:30 AM"); // EDT, UTC-4: 2:30 never happens
    expect(plain(ny.dateTime("2026-11-01T05:30:00Z"))).toBe("Nov 1, 2026, 1:30 AM"); // EDT
    expect(plain(ny.dateTime("2026-11-01T06:30:00Z"))).toBe("Nov 1, 2026, 1:30 AM"); // EST: 1:30 happens twice
    const bxl = dateFormats("en", BXL);
    expect(plain(bxl.dateTime("2026-03-29T00:30:00Z"))).toBe("Mar 29, 2026, 1:30 AM"); // CET
    expect(plain(bxl.dateTime("2026-03-29T01:30:00Z"))).toBe("Mar 29, 2026, 3:30 AM"); // CEST
  });
});

describe("time-zone arithmetic", () => {
  it("knows the zone's offset on both sides of New York's 2026 changes", () => {
    expect(zoneOffset(new Date("2026-03-08T06:59:59Z"), NY)).toBe(-5 * HOUR);
    expect(zoneOffset(new Date("2026-03-08T07:00:00Z"), NY)).toBe(-4 * HOUR);
    expect(zoneOffset(new Date("2026-11-01T05:59:59Z"), NY)).toBe(-4 * HOUR);
    expect(zoneOffset(new Date("2026-11-01T06:00:00Z"), NY)).toBe(-5 * HOUR);
    expect(zoneOffset(Date.parse("2026-07-01T12:00:00Z"), BXL)).toBe(2 * HOUR);
    expect(zoneOffset(Date.parse("2026-01-01T12:00:00Z"), BXL)).toBe(1 * HOUR);
  });

  it("tells the calendar day of an instant in a zone", () => {
    expect(dayIn(new Date("2026-03-08T04:59:59Z"), NY)).toBe("2026-03-07");
    expect(dayIn(new Date("2026-03-08T05:00:00Z"), NY)).toBe("2026-03-08");
    expect(dayIn(Date.parse("2026-10-31T23:30:00Z"), BXL)).toBe("2026-11-01");
    expect(dayIn(Date.parse("2026-10-31T23:30:00Z"), NY)).toBe("2026-10-31");
  });

  it("gives the UTC bounds of New York's days around the changes: 23 and 25 hours long", () => {
    expect(iso(startOfDay("2026-03-07", NY))).toBe("2026-03-07T05:00:00.000Z");
    expect(iso(startOfDay("2026-03-08", NY))).toBe("2026-03-08T05:00:00.000Z");
    expect(iso(endOfDay("2026-03-08", NY))).toBe("2026-03-09T04:00:00.000Z");
    expect(endOfDay("2026-03-08", NY).getTime() - startOfDay("2026-03-08", NY).getTime()).toBe(23 * HOUR);
    expect(iso(startOfDay("2026-11-01", NY))).toBe("2026-11-01T04:00:00.000Z");
    expect(iso(endOfDay("2026-11-01", NY))).toBe("2026-11-02T05:00:00.000Z");
    expect(endOfDay("2026-11-01", NY).getTime() - startOfDay("2026-11-01", NY).getTime()).toBe(25 * HOUR);
  });

  it("gives the UTC bounds of Brussels's days and months, in winter and summer time", () => {
    expect(iso(startOfDay("2026-01-15", BXL))).toBe("2026-01-14T23:00:00.000Z");
    expect(iso(startOfDay("2026-07-15", BXL))).toBe("2026-07-14T22:00:00.000Z");
    expect(iso(startOfMonth("2026-03", BXL))).toBe("2026-02-28T23:00:00.000Z");
    expect(iso(endOfMonth("2026-03", BXL))).toBe("2026-03-31T22:00:00.000Z");
    expect(iso(endOfMonth("2026-12", BXL))).toBe("2026-12-31T23:00:00.000Z");
  });

  it("gives New York's months across the changes", () => {
    expect(iso(startOfMonth("2026-03", NY))).toBe("2026-03-01T05:00:00.000Z");
    expect(iso(endOfMonth("2026-03", NY))).toBe("2026-04-01T04:00:00.000Z");
    expect(iso(startOfMonth("2026-11", NY))).toBe("2026-11-01T04:00:00.000Z");
    expect(iso(endOfMonth("2026-11", NY))).toBe("2026-12-01T05:00:00.000Z");
  });

  it("starts a day whose midnight is skipped at the end of the gap", () => {
    // Santiago moves its clocks from 00:00 to 01:00 on 6 September 2026: that day starts at 01:00, UTC-3.
    const start = startOfDay("2026-09-06", "America/Santiago");
    expect(dayIn(start, "America/Santiago")).toBe("2026-09-06");
    expect(dayIn(new Date(start.getTime() - 1000), "America/Santiago")).toBe("2026-09-05");
    expect(iso(start)).toBe("2026-09-06T04:00:00.000Z");
  });

  it("moves calendar days across months and years", () => {
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });
});

describe("localInstant: a local date and time of a zone", () => {
  it("names the same wall-clock time on both sides of New York's changes, a skipped time after the gap", () => {
    expect(iso(localInstant("2026-03-07", "08:00", NY))).toBe("2026-03-07T13:00:00.000Z");
    expect(iso(localInstant("2026-03-08", "08:00:00", NY))).toBe("2026-03-08T12:00:00.000Z");
    expect(iso(localInstant("2026-03-08", "02:30", NY))).toBe("2026-03-08T07:30:00.000Z");
    expect(iso(localInstant("2026-11-01", "01:30", NY))).toBe("2026-11-01T05:30:00.000Z");
    expect(iso(localInstant("2026-11-01", null, NY))).toBe(iso(startOfDay("2026-11-01", NY)));
  });
});

describe("isCalendarDay: the days a form or an address may name", () => {
  it("accepts existing days from 1970 to 2999 and refuses the rest", () => {
    for (const day of ["2026-11-29", "2024-02-29", "1970-01-01", "2999-12-31"]) expect(isCalendarDay(day), day).toBe(true);
    for (const day of ["2026-02-30", "2025-02-29", "0000-01-01", "1969-12-31", "3000-01-01", "9999-12-31", "2026-13-01", "2026-1-01", " 2026-11-29", "", null, 20261129]) {
      expect(isCalendarDay(day), String(day)).toBe(false);
    }
  });
});
