import type { AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@remix-run/node";
import express, { type Express } from "express";
import pino from "pino";
import { accessLog } from "../../server/access-log";
import { bodyLimitErrors, bodyLimits } from "../../server/body-limit";
import { type RateLimitTiers, tieredRateLimits } from "../../server/rate-limit";
import { sameOriginWrites } from "../../server/same-origin";
import type { ServerSettings } from "../../server/settings";

/**
 * The server's middlewares in server.ts's order, in front of a stand-in for the Remix handler that
 * reads the body the way @remix-run/express does (a web Request over the Node stream, then
 * `formData()` or `text()`); under /unread it answers 404 without reading the body.
 */
export const settings: ServerSettings = {
  APP_URL: "http://127.0.0.1",
  appUrlConfigured: false,
  TRUST_PROXY: 0,
  COMPRESSION: true,
  UPLOAD_MAX_BYTES: 1024 * 1024,
  RATE_LIMIT_MULTIPLIER: 1,
};

export interface Seen {
  path: string;
  method: string;
  ip: string | undefined;
  /** Bytes of the body the handler read, or the error reading it. */
  read?: number;
  readError?: string;
}

export async function startServer(
  options: { settings?: Partial<ServerSettings>; tiers?: RateLimitTiers; log?: pino.Logger } = {},
) {
  const cfg = { ...settings, ...options.settings };
  const seen: Seen[] = [];
  const app: Express = express();
  app.set("trust proxy", cfg.TRUST_PROXY);
  app.use(accessLog(options.log ?? pino({ level: "silent" })));
  app.use(tieredRateLimits(cfg, options.tiers));
  app.use(sameOriginWrites(cfg));
  app.use(bodyLimits(cfg));
  app.all("*", async (req, res, next) => {
    const entry: Seen = { path: req.path, method: req.method, ip: req.ip };
    seen.push(entry);
    try {
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(`http://${req.get("host")}${req.originalUrl}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        ...(hasBody ? { body: createReadableStreamFromReadable(req), duplex: "half" } : {}),
      } as RequestInit);
      // A handler that answers without reading the body (a refusal, a redirect, a 404 or 405 of the app).
      if (req.path.startsWith("/unread")) return void res.status(404).type("text/plain").send("not read");
      if (hasBody) {
        try {
          const form = /form/.test(req.get("content-type") ?? "") ? await request.formData() : null;
          entry.read = form ? [...form.values()].reduce((n, v) => n + (typeof v === "string" ? v.length : v.size), 0) : (await request.text()).length;
        } catch (error) {
          entry.readError = error instanceof Error ? error.message : String(error);
          if (process.env.DEBUG_HARNESS) console.error(error);
          throw error;
        }
      }
      res.status(200).type("text/plain").send("ok");
    } catch (error) {
      next(error);
    }
  });
  app.use(bodyLimitErrors);
  return { ...(await listen(app)), seen };
}

/** Serves `app` on a free port of 127.0.0.1: its address, and how to stop it. */
export async function listen(app: Express): Promise<{ base: string; close: () => Promise<void> }> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
