import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { postgresLimitStore } from "../../app/core/shared-limits.server";
import { addressKey, createTiers } from "../../server/rate-limit";
import { startServer } from "./harness";

let server: Awaited<ReturnType<typeof startServer>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(server!.base + path, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: "{}" });

describe("tiered rate limits per client address", () => {
  it("allows 10 authentication posts a minute, then answers 429 with Retry-After", async () => {
    server = await startServer();
    for (let i = 0; i < 10; i++) expect((await post(i % 2 ? "/login" : "/api/authentication/login")).status).toBe(200);
    const refused = await post("/login.data");
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await refused.text()).toBe("Too many requests. Please wait a moment and try again.");
    // Every public and password post shares the strict tier; other writes have their own.
    for (const path of ["/signup", "/password/reset", "/api/users/password", "/report-issue", "/API/Authentication/Login"]) {
      expect((await post(path)).status, path).toBe(429);
    }
    expect((await post("/add-facility")).status).toBe(200);
    expect((await fetch(server.base + "/login")).status).toBe(200);
  });

  it("counts a token page opened with a token in the strict tier", async () => {
    server = await startServer();
    for (let i = 0; i < 10; i++) expect((await fetch(`${server.base}/signup/verify?token=guess${i}`)).status).toBe(200);
    expect((await fetch(`${server.base}/password/reset?token=guess`)).status).toBe(429);
    expect((await fetch(`${server.base}/password/reset`)).status).toBe(200);
    // The token of an occupier's report status page is in its path.
    expect((await fetch(`${server.base}/report/status/guess`)).status).toBe(429);
    expect((await fetch(`${server.base}/Report/Status/guess.data`)).status).toBe(429);
    expect((await fetch(`${server.base}/report/abcd1234`)).status).toBe(200);
  });

  it("allows 100 other writes and 1000 requests in all a minute", async () => {
    server = await startServer({ tiers: createTiers(1) });
    for (let i = 0; i < 100; i++) expect((await post("/add-facility")).status).toBe(200);
    expect((await post("/update-room/1")).status).toBe(429);
    for (let i = 0; i < 899; i++) expect((await fetch(`${server.base}/facilities?page=${i}`)).status).toBe(200);
    const refused = await fetch(`${server.base}/facilities`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  }, 60_000);

  it("cannot be escaped by inventing X-Forwarded-For when no proxy is trusted (TRUST_PROXY=0)", async () => {
    server = await startServer();
    for (let i = 0; i < 10; i++) expect((await post("/login", { "X-Forwarded-For": `203.0.113.${i}` })).status).toBe(200);
    expect((await post("/login", { "X-Forwarded-For": "198.51.100.99" })).status).toBe(429);
    expect(server.seen.every((s) => s.ip === "127.0.0.1")).toBe(true);
  });

  it("reads the address one hop back in X-Forwarded-For behind one trusted proxy (TRUST_PROXY=1)", async () => {
    server = await startServer({ settings: { TRUST_PROXY: 1 } });
    // The client can prepend anything; the proxy appends the address it saw, which is what counts.
    for (let i = 0; i < 10; i++) expect((await post("/login", { "X-Forwarded-For": `10.9.9.${i}, 203.0.113.5` })).status).toBe(200);
    expect((await post("/login", { "X-Forwarded-For": "10.9.9.99, 203.0.113.5" })).status).toBe(429);
    expect((await post("/login", { "X-Forwarded-For": "203.0.113.6" })).status).toBe(200);
    expect(server.seen.at(-1)!.ip).toBe("203.0.113.6");
  });

  it("goes on limiting in memory, and lets requests through, while its shared store fails", async () => {
    // A PostgreSQL store whose database is unreachable: every query of the store fails.
    const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/gone", connectionTimeoutMillis: 1000 });
    try {
      server = await startServer({ tiers: createTiers(1, { store: postgresLimitStore(pool) }) });
      for (let i = 0; i < 10; i++) expect((await post("/login")).status).toBe(200);
      const refused = await post("/login");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await post("/add-facility")).status).toBe(200);
      expect((await fetch(server.base + "/facilities")).status).toBe(200);
    } finally {
      await pool.end();
    }
  });
});

describe("addressKey", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6, and groups IPv6 by /64", () => {
    expect(addressKey("203.0.113.5")).toBe("203.0.113.5");
    expect(addressKey("::ffff:203.0.113.5")).toBe("203.0.113.5");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2::99")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey(undefined)).toBe("unknown");
  });
});
