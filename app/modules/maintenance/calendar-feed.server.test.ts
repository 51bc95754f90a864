import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { Role, TaskStatus } from "~/db/enums";
import { type Entity, type User, users } from "~/db/schema";
import { addDays, dayIn, zoneOffset } from "~/lib/dates";
import { ForbiddenError } from "~/lib/errors";
import { createBuilding, createEntity, createPlannedMaintenance, createRoom, createTask, createUser, linkUserTo } from "#tests/factories";
import { actorContext, rejectionOf } from "#tests/service-helpers";
import { createTestDatabase } from "#tests/test-db";
import { localInstant } from "~/lib/dates";
import { getCalendarToken, issueCalendarToken } from "~/modules/users/calendar-token.server";
import { calendarFeed, escapeText, foldLine, icsDocument } from "./calendar-feed.server";

const zonedInstant = (day: string, time: string, timeZone: string) =>
  localInstant(day, time, timeZone).getTime();

/**
 * The iCalendar feed (RFC 5545): text escaping and line folding, the secret per person (made on demand,
 * reset), a wrong token answering nothing, and the feed parsed back: CRLF lines, folds of at most 75
 * octets, one VEVENT per task of mine with a stable UID, times in UTC across a change to summer time,
 * all-day tasks as DATE values.
 */
let database: Database;
let entity: Entity;
let technician: User;
let colleague: User;

/** The content lines of a document, unfolded (RFC 5545 section 3.1). */
function unfold(text: string): string[] {
  return text
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter((line) => line !== "");
}

/** The VEVENTs of a document as maps of property (with parameters) to value. */
function eventsOf(text: string): Map<string, string>[] {
  const events: Map<string, string>[] = [];
  let current: Map<string, string> | null = null;
  for (const line of unfold(text)) {
    if (line === "BEGIN:VEVENT") current = new Map();
    else if (line === "END:VEVENT") {
      events.push(current!);
      current = null;
    } else if (current) {
      const colon = line.indexOf(":");
      current.set(line.slice(0, colon), line.slice(colon + 1));
    }
  }
  return events;
}

/** The next day after `from` on which Brussels moves its clocks forward (within a year and a half). */
function nextSpringForward(from: string): string {
  for (let day = addDays(from, 1), i = 0; i < 550; day = addDays(day, 1), i++) {
    const before = zoneOffset(
      Date.parse(`${day}T00:00:00Z`),
      "Europe/Brussels"
    );
    const after = zoneOffset(Date.parse(`${day}T12:00:00Z`), "Europe/Brussels");
    if (after > before) return day;
  }
  throw new Error("no change to summer time found");
}

beforeAll(async () => {
  database = await createTestDatabase();
  entity = await createEntity(database.db, { timeZone: "Europe/Brussels" });
  technician = await createUser(database.db, {
    entityId: entity.id,
    role: Role.TECHNICIAN,
  });
  colleague = await createUser(database.db, {
    entityId: entity.id,
    role: Role.TECHNICIAN,
  });
  const building = await createBuilding(database.db, {
    entityId: entity.id,
    name: "North",
  });
  for (const user of [technician, colleague])
    await linkUserTo(database.db, {
      entityId: entity.id,
      userId: user.id,
      buildingId: building.id,
    });
});

afterAll(async () => {
  await database?.close();
});

describe("RFC 5545 text", () => {
  it("escapes backslashes, semicolons, commas and line breaks", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
  });

  it("folds lines at 75 octets without splitting a UTF-8 character, and ends every line with CRLF", () => {
    const line = `SUMMARY:${"é".repeat(60)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts)
      expect(new TextEncoder().encode(part).byteLength).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) expect(part.startsWith(" ")).toBe(true);
    expect(parts.map((p, i) => (i ? p.slice(1) : p)).join("")).toBe(line);
    expect(foldLine("SHORT:x")).toBe("SHORT:x");
    expect(icsDocument(["A:1", "B:2"])).toBe("A:1\r\nB:2\r\n");
  });

  it("reads a local time across the changes of the clock", () => {
    // 2027-03-28: Brussels skips 02:00-03:00; 2026-10-25: 02:00-03:00 happens twice.
    expect(
      new Date(
        zonedInstant("2027-03-27", "09:00:00", "Europe/Brussels")
      ).toISOString()
    ).toBe("2027-03-27T08:00:00.000Z");
    expect(
      new Date(
        zonedInstant("2027-03-28", "09:00:00", "Europe/Brussels")
      ).toISOString()
    ).toBe("2027-03-28T07:00:00.000Z");
    expect(
      new Date(
        zonedInstant("2027-03-28", "02:30:00", "Europe/Brussels")
      ).toISOString()
    ).toBe("2027-03-28T01:30:00.000Z");
    expect(
      new Date(
        zonedInstant("2026-10-25", "02:30", "Europe/Brussels")
      ).toISOString()
    ).toBe("2026-10-25T00:30:00.000Z");
  });
});

describe("the feed's secret", () => {
  it("is made on demand, kept, and replaced on reset; only for a person", async () => {
    const ctx = actorContext(database.db, technician);
    expect(await getCalendarToken(ctx)).toBeNull();
    const token = await issueCalendarToken(ctx, { reset: false });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await issueCalendarToken(ctx, { reset: false })).toBe(token);
    const fresh = await issueCalendarToken(ctx, { reset: true });
    expect(fresh).not.toBe(token);
    expect(await getCalendarToken(ctx)).toBe(fresh);
    // The old address answers nothing now.
    expect(
      await calendarFeed(database.db, token, {
        appUrl: "https://caretaker.example",
      })
    ).toBeNull();
    expect(
      await rejectionOf(
        issueCalendarToken({ ...ctx, actor: null }, { reset: true })
      )
    ).toBeInstanceOf(ForbiddenError);
  });

  it("answers nothing for a wrong, malformed or disabled account's token, and changes nothing", async () => {
    const before = await database.db
      .select({ id: users.id, token: users.calendarToken })
      .from(users);
    for (const wrong of [
      "",
      "x",
      "A".repeat(43),
      "../../etc/passwd",
      `${"a".repeat(42)}'`,
    ]) {
      expect(
        await calendarFeed(database.db, wrong, {
          appUrl: "https://caretaker.example",
        })
      ).toBeNull();
    }
    expect(
      await database.db
        .select({ id: users.id, token: users.calendarToken })
        .from(users)
    ).toEqual(before);
  });
});

describe("calendarFeed", () => {
  it("lists my tasks from 30 days ago as events Outlook and Google read, in UTC across a change to summer time", async () => {
    const db = database.db;
    const today = dayIn(Date.now(), "Europe/Brussels");
    const spring = nextSpringForward(today);
    const room = await createRoom(db, {
      entityId: entity.id,
      buildingId: (
        await createBuilding(db, {
          entityId: entity.id,
          name: "South; main, old",
        })
      ).id,
      name: "Boiler room",
    });
    await linkUserTo(db, {
      entityId: entity.id,
      userId: technician.id,
      facilityId: (await db.query.buildings.findFirst({
        where: (b, { eq: is }) => is(b.id, room.buildingId),
      }))!.facilityId,
    });
    const plan = await createPlannedMaintenance(db, {
      entityId: entity.id,
      name: "Boiler check, yearly",
      assigneeIds: [technician.id],
      timeOfDay: "09:00:00",
      instructions:
        "Check the pressure; bleed the radiators.\nWrite down the reading.",
    });
    const allDay = await createPlannedMaintenance(db, {
      entityId: entity.id,
      name: "Window cleaning",
      assigneeIds: [technician.id],
    });
    const notMine = await createPlannedMaintenance(db, {
      entityId: entity.id,
      name: "Not mine",
      assigneeIds: [colleague.id],
    });
    const before = await createTask(db, {
      entityId: entity.id,
      plannedMaintenanceId: plan.id,
      roomId: room.id,
      dueDate: addDays(spring, -1),
      dueTime: "09:00:00",
    });
    const after = await createTask(db, {
      entityId: entity.id,
      plannedMaintenanceId: plan.id,
      roomId: room.id,
      dueDate: spring,
      dueTime: "09:00:00",
    });
    const whole = await createTask(db, {
      entityId: entity.id,
      plannedMaintenanceId: allDay.id,
      roomId: room.id,
      dueDate: today,
      status: TaskStatus.DONE,
    });
    await createTask(db, {
      entityId: entity.id,
      plannedMaintenanceId: allDay.id,
      roomId: room.id,
      dueDate: addDays(today, -31),
    }); // too old
    await createTask(db, {
      entityId: entity.id,
      plannedMaintenanceId: notMine.id,
      roomId: room.id,
      dueDate: today,
    });

    const token = await issueCalendarToken(actorContext(db, technician), {
      reset: false,
    });
    const text = (await calendarFeed(db, token, {
      appUrl: "https://caretaker.example/",
    }))!;
    expect(text).not.toBeNull();
    // Every line ends with CRLF; no bare LF; folded lines at most 75 octets.
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of text.split("\r\n"))
      expect(new TextEncoder().encode(line).byteLength).toBeLessThanOrEqual(75);
    const lines = unfold(text);
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(lines.some((l) => l.startsWith("PRODID:"))).toBe(true);
    expect(lines.at(-1)).toBe("END:VCALENDAR");

    const events = eventsOf(text);
    expect(events.map((e) => e.get("UID"))).toEqual([
      `task-${whole.id}@caretaker.example`,
      `task-${before.id}@caretaker.example`,
      `task-${after.id}@caretaker.example`,
    ]);
    for (const event of events)
      expect(event.get("DTSTAMP")).toMatch(/^\d{8}T\d{6}Z$/);
    const [done, winter, summer] = events;
    const compact = (day: string) => day.replaceAll("-", "");
    expect(done.get("DTSTART;VALUE=DATE")).toBe(compact(today));
    expect(done.get("DTEND;VALUE=DATE")).toBe(compact(addDays(today, 1)));
    expect(done.get("SUMMARY")).toBe("✓ Window cleaning");
    // 09:00 in Brussels: 08:00 UTC the day before the change, 07:00 UTC on the day itself.
    expect(winter.get("DTSTART")).toBe(
      `${compact(addDays(spring, -1))}T080000Z`
    );
    expect(summer.get("DTSTART")).toBe(`${compact(spring)}T070000Z`);
    expect(summer.get("DTEND")).toBe(`${compact(spring)}T080000Z`);
    expect(summer.get("SUMMARY")).toBe("Boiler check\\, yearly");
    expect(summer.get("LOCATION")).toBe("South\\; main\\, old · Boiler room");
    expect(summer.get("DESCRIPTION")).toBe(
      `Check the pressure\\; bleed the radiators.\\nWrite down the reading.\\n\\nhttps://caretaker.example/view-task/${plan.id}/${spring}`
    );
    expect(summer.get("URL")).toBe(
      `https://caretaker.example/view-task/${plan.id}/${spring}`
    );

    // Asked again: the same UIDs (a calendar updates its events rather than adding new ones).
    const again = eventsOf(
      (await calendarFeed(db, token, { appUrl: "https://caretaker.example" }))!
    );
    expect(again.map((e) => e.get("UID"))).toEqual(
      events.map((e) => e.get("UID"))
    );

    // A disabled account's feed answers nothing.
    await db
      .update(users)
      .set({ status: 3 })
      .where(eq(users.id, technician.id));
    expect(
      await calendarFeed(db, token, { appUrl: "https://caretaker.example" })
    ).toBeNull();
    await db
      .update(users)
      .set({ status: 2 })
      .where(eq(users.id, technician.id));
  });
});
