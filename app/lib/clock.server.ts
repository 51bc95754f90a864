/**
 * The server's clock: what the session code reads instead of `Date.now()`, so that time can be moved in
 * a test without waiting. In production it is `Date.now()`: the offset stays 0 unless the process was
 * started with `TEST_CLOCK_IPC` on *and* by a parent process holding an IPC channel to it (the end-to-end
 * suite's server fixture). No request can reach it. The offset lives on globalThis, so every bundle of
 * the process (server.ts and the Remix build) reads the same clock.
 */
const holder = globalThis as unknown as { __caretakerClockOffsetMs?: number };

/** Milliseconds since the epoch, as the server sees them. */
export function now(): number {
  return Date.now() + (holder.__caretakerClockOffsetMs ?? 0);
}

/** How far the clock is ahead of the real time, in milliseconds. */
export function clockOffset(): number {
  return holder.__caretakerClockOffsetMs ?? 0;
}

/** The message a test's parent process sends; the server answers `{ type: CLOCK_SET, offsetMs }`. */
export const CLOCK_SET = "caretaker:clock-set";
export interface ClockMessage {
  type: typeof CLOCK_SET;
  offsetMs: number;
}

function isClockMessage(message: unknown): message is ClockMessage {
  const m = message as Partial<ClockMessage> | null;
  return (
    typeof m === "object" &&
    m !== null &&
    m.type === CLOCK_SET &&
    typeof m.offsetMs === "number" &&
    Number.isFinite(m.offsetMs) &&
    Math.abs(m.offsetMs) <= 366 * 86_400_000
  );
}

/** What `acceptClockFromParent` needs of a process: its IPC channel. */
export interface IpcProcess {
  send?: (message: unknown) => boolean;
  on(event: "message", listener: (message: unknown) => void): unknown;
}

/**
 * Lets the parent process set the clock's offset over the IPC channel (tests only). Returns false, and
 * listens to nothing, when the process has no IPC channel.
 */
export function acceptClockFromParent(proc: IpcProcess = process as unknown as IpcProcess): boolean {
  if (typeof proc.send !== "function") return false;
  proc.on("message", (message) => {
    if (!isClockMessage(message)) return;
    holder.__caretakerClockOffsetMs = message.offsetMs;
    proc.send?.({ type: CLOCK_SET, offsetMs: message.offsetMs });
  });
  return true;
}
