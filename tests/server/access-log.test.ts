import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routesById } from "../../app/route-access";
import { loggableUrl } from "../../server/access-log";
import { startServer } from "./harness";

const token = "Xk3v_9QmZr2LpT8wYb4NcJ6hUe1sAo5dGf7iKq0tWxE"; // the shape of newOpaqueToken()

describe("loggableUrl", () => {
  it("drops single-use tokens from the query", () => {
    expect(loggableUrl(`/password/reset?token=${token}`)).toBe("/password/reset?token=[redacted]");
    expect(loggableUrl(`/signup/verify?token=${token}&lng=fr`)).toBe("/signup/verify?token=[redacted]&lng=[redacted]");
  });

  it("drops search text and email addresses, keeps paging and sorting", () => {
    expect(loggableUrl("/facilities?q=Jan%20Peeters&sort=name&dir=desc&page=2")).toBe("/facilities?q=[redacted]&sort=name&dir=desc&page=2");
    expect(loggableUrl("/users?email=jan%40example.be")).toBe("/users?email=[redacted]");
    expect(loggableUrl("/users?jan@example.be")).toBe("/users?[redacted]");
    expect(loggableUrl("/signup?step=entity")).toBe("/signup?step=entity");
    expect(loggableUrl("/facilities?page=<script>")).toBe("/facilities?page=[redacted]");
  });

  it("replaces path segments that look like tokens or carry an email address", () => {
    expect(loggableUrl(`/password/reset/${token}`)).toBe("/password/reset/:redacted");
    expect(loggableUrl("/users/jan@example.be/edit")).toBe("/users/:redacted/edit");
    expect(loggableUrl("/users/jan%40example.be")).toBe("/users/:redacted");
    expect(loggableUrl(`/x/${"a".repeat(100)}`)).toBe("/x/:redacted");
    // Ordinary paths, numeric ids and UUIDs stay readable.
    expect(loggableUrl("/update-planned-maintenance/12")).toBe("/update-planned-maintenance/12");
    expect(loggableUrl("/files/0b7c6f0e-4f4e-4b59-9a3e-2f0f9f8c1d2a")).toBe("/files/0b7c6f0e-4f4e-4b59-9a3e-2f0f9f8c1d2a");
    expect(loggableUrl("/locales/fr-BE/common.json")).toBe("/locales/fr-BE/common.json");
  });

  it("no route of the app carries a token in a path segment, but the report status page and the calendar feed, whose tokens are dropped", () => {
    // `:identifier` is a sticker's code: printed on the sticker in the room, not a secret; an import
    // template's `:file` is a type's name and format ("rooms.xlsx").
    const params = [...routesById.values()]
      .filter((route) => route.id !== "report-status" && route.id !== "calendar-feed")
      .map((route) => (route.id === "import-template" ? { ...route, path: route.path.replace(":file", ":template") } : route))
      .flatMap((route) => route.path.split("/").filter((s) => s.startsWith(":")));
    for (const param of params) expect(param, "route parameters are ids, languages, namespaces, dates, tags and sticker codes").toMatch(/^:(id|commentId|fileId|entryId|lineId|lng|ns|date|tag|identifier|template)(\.json)?$/);
    expect(routesById.get("report-status")?.path).toBe("report/status/:token");
    expect(loggableUrl(`/report/status/${token}`)).toBe("/report/status/:redacted");
    expect(loggableUrl("/Report/Status/lowercaseonlytokenwithoutdigits?x=1")).toBe("/Report/Status/:redacted?x=[redacted]");
    expect(routesById.get("calendar-feed")?.path).toBe("calendar/:file");
    expect(loggableUrl(`/calendar/${token}.ics`)).toBe("/calendar/:redacted");
    expect(loggableUrl("/Calendar/shortsecret.ics")).toBe("/Calendar/:redacted");
    expect(loggableUrl("/report/G7XSMV7J7X64M?type=9&sent=12")).toBe("/report/G7XSMV7J7X64M?type=[redacted]&sent=12");
  });
});

describe("the access log", () => {
  const lines: string[] = [];
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    server = await startServer({ log: pino({ level: "info" }, sink), settings: { RATE_LIMIT_MULTIPLIER: 1000 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it("never writes a token, a search or an email address", async () => {
    await fetch(`${server.base}/password/reset?token=${token}`);
    await fetch(`${server.base}/signup/verify?token=${token}`);
    await fetch(`${server.base}/facilities?q=Jan%20Peeters&page=3`);
    await fetch(`${server.base}/users/jan@example.be`);
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join("\n");
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(log).not.toContain(token);
    expect(log).not.toContain("Peeters");
    expect(log).not.toContain("jan@example.be");
    expect(log).toContain('"url":"/facilities?q=[redacted]&page=3"');
    expect(log).toContain('"url":"/password/reset?token=[redacted]"');
  });
});
