import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCors } from "../../server/cors";

/** server/cors.ts in front of a stand-in handler that answers every request 200 "ok". */
async function start(origins: string[]) {
  const app = express();
  app.use(apiCors({ API_CORS_ORIGINS: origins }));
  app.all("*", (_req, res) => {
    res.status(200).send("ok");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

let off: Awaited<ReturnType<typeof start>>;
let on: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  off = await start([]);
  on = await start(["https://integrations.example.com"]);
});
afterAll(async () => {
  await off.close();
  await on.close();
});

const preflight = (origin: string) => ({
  method: "OPTIONS",
  headers: { Origin: origin, "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "authorization,content-type" },
});

describe("CORS on /api", () => {
  it("is off without configured origins: no CORS header, the preflight is not answered here", async () => {
    const res = await fetch(`${off.base}/api/facilities`, { headers: { Origin: "https://integrations.example.com" } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const pre = await fetch(`${off.base}/api/facilities`, preflight("https://integrations.example.com"));
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    expect(await pre.text()).toBe("ok");
  });

  it("allows a configured origin on /api, with the exposed headers, and answers its preflight with 204", async () => {
    const res = await fetch(`${on.base}/api/facilities`, { headers: { Origin: "https://integrations.example.com" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://integrations.example.com");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
    expect(res.headers.get("vary")).toMatch(/Origin/);
    const pre = await fetch(`${on.base}/API/Facilities/1`, preflight("https://integrations.example.com"));
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(pre.headers.get("access-control-allow-headers")).toContain("Authorization");
  });

  it("gives another origin, and pages outside /api, no CORS header", async () => {
    for (const origin of ["https://evil.example", "https://integrations.example.com.evil.example", "null"]) {
      const res = await fetch(`${on.base}/api/facilities`, { headers: { Origin: origin } });
      expect(res.headers.get("access-control-allow-origin"), origin).toBeNull();
      const pre = await fetch(`${on.base}/api/facilities`, preflight(origin));
      expect(pre.headers.get("access-control-allow-origin"), origin).toBeNull();
    }
    const page = await fetch(`${on.base}/dashboard`, { headers: { Origin: "https://integrations.example.com" } });
    expect(page.headers.get("access-control-allow-origin")).toBeNull();
  });
});
