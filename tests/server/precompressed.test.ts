import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "./harness";
import { precompressed } from "../../server/precompressed";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-static-"));
const source = "console.log('hello');\n".repeat(200);
let base = "";
let close: () => Promise<void>;

beforeAll(async () => {
  fs.mkdirSync(path.join(root, "assets"));
  fs.writeFileSync(path.join(root, "assets/app.js"), source);
  fs.writeFileSync(path.join(root, "assets/app.js.br"), zlib.brotliCompressSync(source));
  fs.writeFileSync(path.join(root, "assets/app.js.gz"), zlib.gzipSync(source));
  fs.writeFileSync(path.join(root, "assets/plain.css"), "body{}".repeat(400));
  const app = express();
  app.use(compression());
  app.use(precompressed(root));
  app.use(express.static(root, { index: false }));
  ({ base, close } = await listen(app));
});

afterAll(async () => {
  await close?.();
  fs.rmSync(root, { recursive: true, force: true });
});

/** fetch decompresses; read the raw bytes with node:http semantics through a plain GET instead. */
async function raw(url: string, acceptEncoding: string) {
  const http = await import("node:http");
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer; status: number }>((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks), status: res.statusCode ?? 0 }));
      })
      .on("error", reject);
  });
}

describe("precompressed static files", () => {
  it("sends the brotli copy to a browser that accepts it, with the original type", async () => {
    const res = await raw(`${base}/assets/app.js`, "gzip, deflate, br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(source);
  });

  it("falls back to gzip, then to the file itself", async () => {
    const gz = await raw(`${base}/assets/app.js`, "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(source);
    const plain = await raw(`${base}/assets/app.js?v=1`, "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(source);
  });

  it("leaves files without a copy to the compressor, and unknown paths to the next handler", async () => {
    const css = await raw(`${base}/assets/plain.css`, "gzip");
    expect(css.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(css.body).toString()).toBe("body{}".repeat(400));
    expect((await raw(`${base}/assets/missing.js`, "br")).status).toBe(404);
    expect((await raw(`${base}/assets/%2e%2e/%2e%2e/etc/passwd`, "br")).status).toBe(404);
  });
});
