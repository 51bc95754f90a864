import pino from "pino";

const globalLogger = globalThis as unknown as { __caretakerLogger?: pino.Logger };

/** One pino logger per process; level from LOG_LEVEL (tests default to silent). */
export function logger(): pino.Logger {
  globalLogger.__caretakerLogger ??= pino({
    level: process.env.LOG_LEVEL ?? (process.env.VITEST ? "silent" : "info"),
    base: { app: "caretaker" },
    redact: ["req.headers.authorization", "req.headers.cookie", "password", "*.password"],
  });
  return globalLogger.__caretakerLogger;
}
