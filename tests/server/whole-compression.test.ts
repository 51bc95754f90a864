import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseEncoding, DYNAMIC_COMPRESSION, wholeCompression } from "../../server/whole-compression";

// Answers with a known length compressed in one call (decision 035), in front of the `compression`
// middleware as in server.ts; everything else left to that middleware.

const page = `<!DOCTYPE html><html><body>${"<p class=\"text-sm\">Caretaker</p>".repeat(400)}</body></html>`;
let base = "";
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(compression());
  app.use(wholeCompression());
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
  app.get("/small", (_req, res) => send(res, "text/html", "<p>short</p>"));
  app.get("/image", (_req, res) => send(res, "image/png", page));
  app.get("/no-transform", (_req, res) => send(res, "text/html", page, { "Cache-Control": "private, no-transform" }));
  app.get("/stream", (_req, res) => {
    res.setHeader("Content-Type", "text/plain");
    res.write(page.slice(0, 5000));
    setTimeout(() => res.end(page.slice(5000)), 5);
  });
  app.get("/end-only", (_req, res) => {
    res.setHeader("Content-Type", "application/json");
    const body = JSON.stringify({ items: page });
    res.setHeader("Content-Length", Buffer.byteLength(body));
    res.end(body);
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

describe("whole-body compression", () => {
  it("sends a page brotli-compressed in one piece, with its compressed length and Vary", async () => {
    const res = await raw("/page", "gzip, deflate, br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-length"]).toBe(String(res.body.byteLength));
    expect(res.headers["transfer-encoding"]).toBeUndefined();
    expect(res.body.byteLength).toBeLessThan(page.length / 10);
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
    const text = `<!DOCTYPE html><html><body>${Array.from({ length: 600 }, (_, i) => `<tr><td>Room ${i * 7919 % 1000}</td><td>${(i * 31) % 97} incidents</td></tr>`).join("")}</body></html>`;
    const app = express();
    app.use(wholeCompression());
    app.get("/", (_req, res) => {
      res.setHeader("Content-Type", "text/html");
      res.setHeader("Content-Length", Buffer.byteLength(text));
      res.end(text);
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const saved = base;
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const br = await raw("/", "br");
      const q = (quality: number) => zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } });
      expect(br.body.equals(q(3))).toBe(true);
      expect(br.body.equals(q(4))).toBe(false);
      const gzip = await raw("/", "gzip");
      expect(gzip.body.equals(zlib.gzipSync(text, { level: 4 }))).toBe(true);
      expect(gzip.body.equals(zlib.gzipSync(text, { level: 6 }))).toBe(false);
    } finally {
      base = saved;
      server.close();
    }
  });

  it("compresses a body given whole to end()", async () => {
    const res = await raw("/end-only", "br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(decoded(res))).toEqual({ items: page });
  });

  it("leaves small bodies, images and no-transform answers as they are", async () => {
    for (const path of ["/small", "/image", "/no-transform"]) {
      const res = await raw(path, "br, gzip");
      expect(res.headers["content-encoding"], path).toBeUndefined();
      expect(res.headers["content-length"], path).toBe(String(res.body.byteLength));
    }
  });

  it("leaves a streamed answer (no length) to the compression middleware", async () => {
    const res = await raw("/stream", "br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(decoded(res)).toBe(page);
  });

  it("answers HEAD without a body or an encoding of its own", async () => {
    const res = await raw("/page", "br", "HEAD");
    expect(res.status).toBe(200);
    expect(res.body.byteLength).toBe(0);
  });

  it("reads Accept-Encoding with weights and wildcards", () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding("")).toBeNull();
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("BR;q=0.1")).toBe("br");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("*;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("identity, deflate")).toBeNull();
    expect(chooseEncoding("br;q=nonsense")).toBeNull();
  });
});
