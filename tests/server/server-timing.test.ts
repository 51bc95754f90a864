import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../app/db/client.server";
import { instrumentPglite, queryTimingStorage } from "../../app/db/query-timing.server";
import { serverTiming } from "../../server/server-timing";

/**
 * SERVER_TIMING (benchmarks): the app's database client adds every query of a request to the store the
 * server's middleware opened for it, and the answer's head carries the sum and the count. Queries
 * outside a request are not counted anywhere.
 */
let database: Database;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  database = await openDatabase({});
  instrumentPglite(database.pglite!);
  const app = express();
  app.use(serverTiming());
  app.get("/three", async (_req, res) => {
    await database.pglite!.query("select 1");
    await Promise.all([database.pglite!.query("select 2"), database.pglite!.exec("select 3")]);
    res.send("ok");
  });
  app.get("/none", (_req, res) => {
    res.send("ok");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
}, 60_000);
afterAll(async () => {
  await close?.();
  await database?.close();
});

describe("Server-Timing", () => {
  it("sums the request's queries and counts them", async () => {
    const res = await fetch(`${base}/three`);
    const header = res.headers.get("server-timing") ?? "";
    expect(header).toMatch(/^db;dur=\d+\.\d{2};desc="3 queries", app;dur=\d+\.\d{2}$/);
    const none = await fetch(`${base}/none`);
    expect(none.headers.get("server-timing")).toMatch(/^db;dur=0\.00;desc="0 queries", app;dur=/);
  });

  it("counts nothing outside a request", async () => {
    expect(queryTimingStorage().getStore()).toBeUndefined();
    await database.pglite!.query("select 1");
    const store = { ms: 0, count: 0 };
    await queryTimingStorage().run(store, () => database.pglite!.query("select 1"));
    expect(store.count).toBe(1);
  });
});
