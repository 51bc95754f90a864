import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createKeptAnswersState } from "~/core/kept-answers.server";
import { pageCache } from "../../server/page-cache";

/**
 * The public page cache (decision 019) in front of a stand-in page, with the app's kept-answers state:
 * kept copies are served until their entity writes or they expire; only plain 200 answers are kept;
 * everything the app gives no key is rendered every time. Pages named `other-*` belong to entity 2, the
 * others to entity 1.
 */
let base: string;
let close: () => Promise<void>;
let renders = 0;
let clock = 1_000_000;
let writeWhileRendering = false;
const kept = createKeptAnswersState();
const entityOf = (url: string) => (url.startsWith("/page/other-") ? 2 : 1);

beforeAll(async () => {
  const app = express();
  app.use(compression());
  app.use(
    pageCache(
      async () => ({
        keyOf: async (req) =>
          req.url.includes("private") || (req.cookie ?? "").includes("__session") ? null : { key: `${req.url}|${req.acceptLanguage ?? ""}`, entityId: entityOf(req.url) },
        stamp: () => kept.stamp(),
        isFresh: (entityId, stamp) => kept.isFresh(entityId, stamp),
      }),
      { paths: /^\/page\/[^/]+$/, ttlMs: 10_000, maxEntries: 3, now: () => clock },
    ),
  );
  app.get("/page/:name", (req, res) => {
    renders++;
    if (writeWhileRendering) kept.committed(1);
    const name = req.params.name;
    if (name === "missing") return void res.status(404).type("html").send("<p>not here</p>");
    if (name === "cookie") res.setHeader("Set-Cookie", "lng=x");
    res.setHeader("Cache-Control", "private, no-store");
    res.type("html");
    res.write(`<h1>${name} ${req.get("accept-language") ?? ""}</h1>`);
    res.end(`<p>${"filler ".repeat(200)}${renders}</p>`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});
afterAll(async () => close());
beforeEach(() => {
  renders = 0;
  kept.drop();
  writeWhileRendering = false;
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(base + path, { headers });
  return { status: res.status, body: await res.text(), headers: res.headers };
};

describe("the public page cache", () => {
  it("serves the second request from memory: the same page and headers, rendered once", async () => {
    const first = await get("/page/a");
    const second = await get("/page/a");
    expect(renders).toBe(1);
    expect(second.status).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers.get("cache-control")).toBe("private, no-store");
    expect(second.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(second.headers.get("set-cookie")).toBeNull();
  });

  it("serves a kept copy compressed or not, as each client asks", async () => {
    const plain = await get("/page/b", { "Accept-Encoding": "identity" });
    const br = await fetch(base + "/page/b", { headers: { "Accept-Encoding": "br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(await br.text()).toBe(plain.body);
    expect(renders).toBe(1);
  });

  it("renders again once its entity wrote, and not when another entity wrote", async () => {
    await get("/page/c");
    await get("/page/other-c");
    kept.committed(1);
    await get("/page/c");
    await get("/page/c");
    await get("/page/other-c");
    expect(renders).toBe(3);
    kept.committed(2);
    await get("/page/other-c");
    await get("/page/c");
    expect(renders).toBe(4);
  });

  it("does not keep a page during whose rendering its entity wrote", async () => {
    writeWhileRendering = true;
    await get("/page/d");
    writeWhileRendering = false;
    await get("/page/d");
    await get("/page/d");
    expect(renders).toBe(2);
  });

  it("renders again after the copy expired", async () => {
    await get("/page/e");
    clock += 10_001;
    await get("/page/e");
    expect(renders).toBe(2);
  });

  it("keys copies as the app says (here by language) and renders whatever it gives no key", async () => {
    expect((await get("/page/f", { "Accept-Language": "fr-BE" })).body).toContain("fr-BE");
    expect((await get("/page/f", { "Accept-Language": "nl-BE" })).body).toContain("nl-BE");
    expect((await get("/page/f", { "Accept-Language": "fr-BE" })).body).toContain("fr-BE");
    expect(renders).toBe(2);
    await get("/page/private");
    await get("/page/private");
    await get("/page/g", { Cookie: "__session=abc" });
    await get("/page/g", { Cookie: "__session=abc" });
    expect(renders).toBe(6);
  });

  it("keeps neither errors nor answers that set a cookie, and never other paths or methods", async () => {
    expect((await get("/page/missing")).status).toBe(404);
    expect((await get("/page/missing")).status).toBe(404);
    expect((await get("/page/cookie")).headers.get("set-cookie")).toBe("lng=x");
    expect((await get("/page/cookie")).headers.get("set-cookie")).toBe("lng=x");
    expect(renders).toBe(4);
    await get("/page/h/");
    await get("/page/h/");
    await fetch(base + "/page/h", { method: "HEAD" });
    expect(renders).toBe(7);
  });

  it("holds at most its number of copies, the least recently used leaving first", async () => {
    for (const name of ["i1", "i2", "i3"]) await get(`/page/${name}`);
    await get("/page/i1"); // used again: i2 is now the oldest
    await get("/page/i4");
    expect(renders).toBe(4);
    await get("/page/i1");
    await get("/page/i3");
    expect(renders).toBe(4);
    await get("/page/i2");
    expect(renders).toBe(5);
  });
});
