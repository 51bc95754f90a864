/**
 * A process's CPU time from /proc (Linux), in ms: `all` for the whole process (every thread, V8's compiler
 * and collector included, finished threads too), `main` for its main thread alone.
 */
import fs from "node:fs";

const CLOCK_TICKS = 100; // USER_HZ on Linux

function ticks(file: string): number {
  const fields = fs.readFileSync(file, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

export function cpuMs(pid: number): { all: number; main: number } {
  return { all: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) };
}
