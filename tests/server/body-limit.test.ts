import http from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimitsFor, FILES_PER_REQUEST, MIB } from "../../server/body-limit";
import { settings, startServer } from "./harness";

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer({ settings: { RATE_LIMIT_MULTIPLIER: 1000 } });
});
afterAll(async () => {
  await server.close();
});

interface Sent {
  status: number;
  body: string;
  /** Bytes the client managed to write before the server answered or closed. */
  written: number;
}

/**
 * Posts `total` bytes in 64 KiB chunks, with Content-Length (`declared`) or chunked, writing only
 * as fast as the server takes them, and stopping as soon as an answer arrives.
 */
function post(path: string, total: number, options: { declared?: boolean; type?: string; headers?: Record<string, string> } = {}): Promise<Sent> {
  const url = new URL(server.base + path);
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request(url, {
      method: "POST",
      headers: {
        "Content-Type": options.type ?? "application/x-www-form-urlencoded",
        ...(options.declared ? { "Content-Length": String(total) } : { "Transfer-Encoding": "chunked" }),
        ...options.headers,
      },
    });
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, written }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, body, written }));
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && !req.destroyed && written < total) {
        const part = written === 0 && !options.declared ? Buffer.concat([Buffer.from("a="), chunk]).subarray(0, chunk.length) : chunk;
        const size = Math.min(part.length, total - written);
        written += size;
        if (!req.write(part.subarray(0, size))) return void req.once("drain", pump);
      }
      if (!answered && !req.destroyed && written >= total) req.end();
    };
    pump();
  });
}

const memory = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers + m.external;
};

describe("request body limits", () => {
  const hundredMb = 100 * MIB;

  it("refuses a declared Content-Length over the limit with 413 before reading a byte", async () => {
    const before = server.seen.length;
    const answer = await post("/login", hundredMb, { declared: true });
    expect(answer.status).toBe(413);
    expect(answer.body).toBe("The data sent is too large.");
    expect(server.seen.length).toBe(before); // the app never saw the request
    expect(answer.written).toBeLessThan(hundredMb);
  });

  it("shows a browser's too-large form post a page in its language that leads back to the form", async () => {
    const from = `${server.base}/add-facility?tab=a&b="c"`;
    const answer = await post("/add-facility", 2 * MIB, {
      declared: true,
      headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language": "nl-BE", Referer: from },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatch(/^<!DOCTYPE html><html lang="nl-BE">/);
    expect(answer.body).toContain("<title>De verzonden gegevens zijn te groot. · Caretaker</title>");
    expect(answer.body).toContain('<a href="/add-facility?tab=a&amp;b=%22c%22">Terug</a>');
  });

  it("cuts a chunked body off with 413 as soon as it passes the limit, without buffering it", async () => {
    const start = memory();
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, memory())), 2);
    const answer = await post("/login", hundredMb);
    clearInterval(sampler);
    const grown = Math.max(peak, memory()) - start;
    if (process.env.SHOW) console.log({ written: answer.written, grownMb: grown / MIB });
    expect(answer.status).toBe(413);
    const seen = server.seen.at(-1)!;
    expect(seen.path).toBe("/login");
    // The reader got an error, never a truncated body taken for a whole one.
    expect(seen.read).toBeUndefined();
    expect(seen.readError).toMatch(/over 65536 bytes/);
    // The client could not send much past the limit: the server stopped reading and closed.
    expect(answer.written).toBeLessThan(8 * MIB);
    expect(grown).toBeLessThan(30 * MIB);
  });

  it("answers a body the app did not read, then serves the next request of the connection", async () => {
    // Remix reads a body through a stream that pauses the request once its buffer is full: an answer
    // sent without reading it (a 404, 405, a refusal) left the connection stuck, and the client's next
    // request on it hung, then was reset. The rest of the body is now read and thrown away.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, size: number, { chunked = false, via = agent } = {}) =>
      new Promise<{ status: number; body: string; connection?: string; socket: Socket }>((resolve, reject) => {
        const body = Buffer.alloc(size, "a");
        const headers = { "Content-Type": "application/json", ...(chunked ? {} : { "Content-Length": String(size) }) };
        let answered = false;
        const req = http.request(new URL(server.base + path), { agent: via, method: "POST", headers }, (res) => {
          answered = true;
          const socket = res.socket;
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection, socket }));
        });
        // A connection ended while the rest of a body was still being sent, after its answer.
        req.on("error", (error) => !answered && reject(error));
        for (let at = 0; at < size; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
        req.end();
      });
    try {
      for (let i = 0; i < 3; i++) {
        const unread = await send("/unread", 700 * 1024);
        expect(unread).toMatchObject({ status: 404, body: "not read", connection: "keep-alive" });
        expect(await send("/add-facility", 10)).toMatchObject({ status: 200, body: "ok" });
      }
      // Past the route's limit (1 MiB) the rest of an unread body is not read: that connection ends after
      // its answer, which the client still gets.
      const once = new http.Agent({ keepAlive: true });
      const cut = await send("/unread", 3 * MIB, { chunked: true, via: once });
      expect(cut).toMatchObject({ status: 404, body: "not read" });
      // The client keeps its connections open: only the server ends this one (within its 2 s linger).
      const socket = cut.socket;
      await expect.poll(() => socket.destroyed, { timeout: 5000 }).toBe(true);
      once.destroy();
    } finally {
      agent.destroy();
    }
  }, 15_000);

  it("lets a body within the limit through, whole", async () => {
    const answer = await post("/login", 60 * 1024);
    expect(answer.status).toBe(200);
    expect(server.seen.at(-1)!.read).toBeGreaterThan(59 * 1024);
  });

  it("applies the authentication limit whatever the spelling of the path", async () => {
    for (const path of ["/LOGIN", "/login.data", "/login/", "//login", "/%6Cogin", "/signup?step=entity", "/password/reset", "/api/authentication/login", "/api/users/password/reset", "/api/users/7/password"]) {
      const answer = await post(path, 200 * 1024, { declared: true, type: "application/json" });
      expect(answer.status, path).toBe(413);
    }
  });

  it("allows 1 MiB for other forms and JSON, more for uploads and the REST routes with base64 files", async () => {
    const limits = bodyLimitsFor(settings);
    expect(limits.multipart).toBe(FILES_PER_REQUEST * settings.UPLOAD_MAX_BYTES + MIB);
    expect((await post("/add-facility", 900 * 1024, { declared: true })).status).toBe(200);
    expect((await post("/add-facility", 2 * MIB)).status).toBe(413);
    expect((await post("/api/facilities", 2 * MIB, { declared: true, type: "application/json" })).status).toBe(413);
    expect((await post("/api/facilities/rooms/3", 2 * MIB, { declared: true, type: "application/json" })).status).toBe(200);
    expect((await post("/api/entities/3/explanatory-sticker", limits.base64Json + 1, { declared: true, type: "application/json" })).status).toBe(413);
    // Users: the invitation and the status take no file (1 MiB); the update takes one picture.
    expect((await post("/api/users", 2 * MIB, { declared: true, type: "application/json" })).status).toBe(413);
    expect((await post("/api/users/3/status", 2 * MIB, { declared: true, type: "application/json" })).status).toBe(413);
    expect((await post("/api/users/3", limits.base64File - 64 * 1024, { declared: true, type: "application/json" })).status).not.toBe(413);
    expect((await post("/api/users/3", limits.base64File + 1, { declared: true, type: "application/json" })).status).toBe(413);
    expect((await post("/api/users/3", 50 * MIB, { declared: true, type: "application/json" })).status).toBe(413);
    expect((await post("/api/users/3", 50 * MIB, { type: "application/json" })).status).toBe(413);
    // An incident's files and its comments' attachments as JSON: a 3 MB file is 4 MB of base64.
    const threeMbAsBase64 = Math.ceil((3_000_000 * 4) / 3) + 200;
    for (const path of ["/api/incidents/3/files", "/api/incidents/3/comments", "/api/incidents/3/comments/4"]) {
      expect((await post(path, threeMbAsBase64, { declared: true, type: "application/json" })).status, path).not.toBe(413);
      expect((await post(path, limits.base64Json + 1, { declared: true, type: "application/json" })).status, path).toBe(413);
    }
    expect((await post("/api/incidents/3/status", 2 * MIB, { declared: true, type: "application/json" })).status).toBe(413);
    // Incident types carry no file: 1 MiB for every call.
    for (const path of ["/api/incident-types", "/api/incident-types/3", "/api/incident-types/translate"]) {
      expect((await post(path, 900 * 1024, { declared: true, type: "application/json" })).status, path).not.toBe(413);
      expect((await post(path, 2 * MIB, { declared: true, type: "application/json" })).status, path).toBe(413);
    }
    expect((await post("/update-room/3", 3 * MIB, { type: "multipart/form-data; boundary=x" })).status).not.toBe(413);
    expect((await post("/update-room/3", limits.multipart + 64 * 1024, { type: "multipart/form-data; boundary=x" })).status).toBe(413);
    // A multipart post to an authentication route keeps the small limit.
    expect((await post("/signup", 200 * 1024, { type: "multipart/form-data; boundary=x" })).status).toBe(413);
  });
});
