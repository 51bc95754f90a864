import { describe, expect, it } from "vitest";
import { dueState, durationParts } from "./due";

const now = new Date("2026-12-07T08:10:00Z");

describe("where a target stands for the screens", () => {
  it("is nothing without a target", () => {
    expect(dueState({ targetMinutes: null, dueAt: null, metAt: null, met: null }, now)).toBeNull();
  });

  it("is due in the real minutes left, or overdue by those past", () => {
    expect(dueState({ targetMinutes: 240, dueAt: "2026-12-07T11:30:00Z", metAt: null, met: null }, now)).toEqual({ kind: "dueIn", minutes: 200, dueAt: "2026-12-07T11:30:00Z" });
    expect(dueState({ targetMinutes: 240, dueAt: "2026-12-06T07:05:00Z", metAt: null, met: null }, now)).toEqual({ kind: "overdueBy", minutes: 1505, dueAt: "2026-12-06T07:05:00Z" });
  });

  it("is met, missed, or stopped", () => {
    expect(dueState({ targetMinutes: 240, dueAt: null, metAt: "2026-12-07T08:00:00Z", met: true }, now)).toEqual({ kind: "met" });
    expect(dueState({ targetMinutes: 240, dueAt: null, metAt: "2026-12-07T08:00:00Z", met: false }, now)).toEqual({ kind: "missed" });
    expect(dueState({ targetMinutes: 240, dueAt: null, metAt: null, met: null }, now)).toEqual({ kind: "stopped" });
  });

  it("writes 3 h 20 min, 1 d 1 h, 5 min", () => {
    expect(durationParts(200)).toEqual({ key: "hours", d: 0, h: 3, m: 20 });
    expect(durationParts(1505)).toEqual({ key: "days", d: 1, h: 1, m: 5 });
    expect(durationParts(5)).toEqual({ key: "minutes", d: 0, h: 0, m: 5 });
  });
});
