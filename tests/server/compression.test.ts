import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DYNAMIC_COMPRESSION, dynamicCompression } from "../../server/compression";

// Dynamic answers compressed by the `compression` middleware as server.ts sets it up (decision 019).

const page = `<!DOCTYPE html><html><body>${Array.from({ length: 600 }, (_, i) => `<tr><td>Room ${(i * 7919) % 1000}</td><td>${(i * 31) % 97} incidents</td></tr>`).join("")}</body></html>`;
let base = "";
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(dynamicCompression());
  const send = (res: express.Response, type: string, body: string, headers: Record<string, string> = {}) => {
    res.status(200).setHeader("Content-Type", type);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const bytes = Buffer.from(body);
    res.setHeader("Content-Length", bytes.byteLength);
    // as @remix-run/express sends a body: writes, then end()
    res.write(bytes.subarray(0, 1000));
    res.write(bytes.subarray(1000));
    res.end();
  };
  app.get("/page", (_req, res) => send(res, "text/html; charset=utf-8", page, { Vary: "Cookie" }));
  app.get("/whole", (_req, res) => {
    res.setHeader("Content-Type", "text/html");
    res.setHeader("Content-Length", Buffer.byteLength(page));
    res.end(page);
  });
  app.get("/small", (_req, res) => send(res, "text/html", "<p>short</p>"));
  app.get("/image", (_req, res) => send(res, "image/png", page));
  app.get("/no-transform", (_req, res) => send(res, "text/html", page, { "Cache-Control": "private, no-transform" }));
  app.get("/stream", (_req, res) => {
    res.setHeader("Content-Type", "text/plain");
    res.write(page.slice(0, 5000));
    setTimeout(() => res.end(page.slice(5000)), 5);
  });
  app.get("/events", (_req, res) => {
    res.setHeader("Content-Type", "text/event-stream");
    res.write(`data: ${"x".repeat(2000)}\n\n`);
    setTimeout(() => res.end(`data: ${"y".repeat(2000)}\n\n`), 5);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close?.());

function raw(path: string, acceptEncoding: string, method = "GET") {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer; status: number }>((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks), status: res.statusCode ?? 0 }));
      })
      .on("error", reject)
      .end();
  });
}

function decoded(res: { headers: http.IncomingHttpHeaders; body: Buffer }): string {
  const encoding = res.headers["content-encoding"];
  if (encoding === "br") return zlib.brotliDecompressSync(res.body).toString();
  if (encoding === "gzip") return zlib.gunzipSync(res.body).toString();
  return res.body.toString();
}

describe("compression of dynamic answers", () => {
  it("sends a page brotli-compressed with Vary: Accept-Encoding", async () => {
    const res = await raw("/page", "gzip, deflate, br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.body.byteLength).toBeLessThan(page.length / 4);
    expect(res.headers.vary).toBe("Cookie, Accept-Encoding");
    expect(decoded(res)).toBe(page);
  });

  it("falls back to gzip, and to none, by what the browser accepts", async () => {
    const gzip = await raw("/page", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(decoded(gzip)).toBe(page);
    const refused = await raw("/page", "br;q=0, gzip;q=0.5");
    expect(refused.headers["content-encoding"]).toBe("gzip");
    const none = await raw("/page", "identity");
    expect(none.headers["content-encoding"]).toBeUndefined();
    expect(none.body.toString()).toBe(page);
  });

  it("compresses at the levels chosen for dynamic answers (brotli 3, gzip 4), not the libraries' defaults", async () => {
    expect(DYNAMIC_COMPRESSION).toEqual({ brotliQuality: 3, gzipLevel: 4 });
    const brotli = (quality: number) => zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } });
    const br = await raw("/whole", "br");
    expect(br.body.equals(brotli(3))).toBe(true);
    expect(br.body.equals(brotli(4))).toBe(false);
    const gzip = await raw("/whole", "gzip");
    expect(gzip.body.subarray(10).equals(zlib.gzipSync(page, { level: 4 }).subarray(10))).toBe(true);
    expect(gzip.body.subarray(10).equals(zlib.gzipSync(page, { level: 6 }).subarray(10))).toBe(false);
  });

  it("leaves small bodies, images and no-transform answers as they are", async () => {
    for (const path of ["/small", "/image", "/no-transform"]) {
      const res = await raw(path, "br, gzip");
      expect(res.headers["content-encoding"], path).toBeUndefined();
      expect(res.headers["content-length"], path).toBe(String(res.body.byteLength));
    }
  });

  it("compresses a streamed answer (no length) as it goes", async () => {
    const res = await raw("/stream", "br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(decoded(res)).toBe(page);
  });

  it("never compresses server-sent events", async () => {
    const res = await raw("/events", "br, gzip");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe(`data: ${"x".repeat(2000)}\n\ndata: ${"y".repeat(2000)}\n\n`);
  });

  it("answers HEAD without a body", async () => {
    const res = await raw("/page", "br", "HEAD");
    expect(res.status).toBe(200);
    expect(res.body.byteLength).toBe(0);
  });
});
