import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { acceptClockFromParent, CLOCK_SET, clockOffset, now } from "./clock.server";

/** A stand-in for a child process's `process`: messages from the parent arrive as "message" events. */
function fakeProcess(withChannel = true) {
  const emitter = new EventEmitter();
  const sent: unknown[] = [];
  const proc = Object.assign(emitter, withChannel ? { send: (m: unknown) => (sent.push(m), true) } : {});
  return { proc, sent };
}

describe("clock", () => {
  afterEach(() => {
    const { proc } = fakeProcess();
    acceptClockFromParent(proc);
    proc.emit("message", { type: CLOCK_SET, offsetMs: 0 });
  });

  it("is the real time while nobody moved it", () => {
    const before = Date.now();
    const read = now();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(Date.now());
    expect(clockOffset()).toBe(0);
  });

  it("moves when the parent process says so, and answers", () => {
    const { proc, sent } = fakeProcess();
    expect(acceptClockFromParent(proc)).toBe(true);
    proc.emit("message", { type: CLOCK_SET, offsetMs: 31_000 });
    expect(clockOffset()).toBe(31_000);
    expect(now() - Date.now()).toBeGreaterThanOrEqual(30_990);
    expect(sent).toEqual([{ type: CLOCK_SET, offsetMs: 31_000 }]);
  });

  it("ignores other messages and offsets beyond a year", () => {
    const { proc, sent } = fakeProcess();
    acceptClockFromParent(proc);
    for (const message of [null, "x", { type: "other", offsetMs: 5 }, { type: CLOCK_SET, offsetMs: "5" }, { type: CLOCK_SET, offsetMs: Infinity }, { type: CLOCK_SET, offsetMs: 400 * 86_400_000 }]) {
      proc.emit("message", message);
    }
    expect(clockOffset()).toBe(0);
    expect(sent).toEqual([]);
  });

  it("does not listen without an IPC channel (a process not started by a test)", () => {
    const { proc } = fakeProcess(false);
    expect(acceptClockFromParent(proc)).toBe(false);
    expect(proc.listenerCount("message")).toBe(0);
  });
});
