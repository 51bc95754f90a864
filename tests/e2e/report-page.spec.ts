import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { APIRequestContext, Browser } from "@playwright/test";
import sharp from "sharp";
import { pngBytes } from "../factories/files";
import { jpegWithExif } from "../factories/images";
import { accounts, axeProblemsOnce, expect, readOutbox, test, unique } from "./fixtures";
import { apiLogin, webSession } from "./helpers";

/**
 * The occupier's report page (issue #13), end to end on a phone (360 x 740), with JavaScript on and
 * off (the two projects; the page itself never runs a script), in English, French and Dutch (the
 * browser's language, and the language switch): a room's and an equipment item's report address read
 * from the room view; a type chosen; a report with a checklist answer, a photo and an email; the
 * thank-you; the confirmation mail and its status page; the incident with its photo for the staff,
 * marked Done, and the reporter's closing mail. An archived room's, a made-up and another entity's
 * identifier give the friendly page; the honeypot drops a post; the page has no script and weighs
 * under 50 KB compressed with its stylesheet. Staff report from the room view as themselves.
 */

type Lng = "en" | "fr-BE" | "nl-BE";
type Dict = Record<string, unknown>;

function locale(lng: Lng) {
  const read = (ns: string) => JSON.parse(fs.readFileSync(path.join("app/locales", lng, `${ns}.json`), "utf8")) as Dict;
  const namespaces: Record<string, Dict> = Object.fromEntries(["common", "report", "incidents"].map((ns) => [ns, read(ns)]));
  return (key: string, values: Record<string, string | number> = {}) => {
    const [ns, rest] = key.includes(":") ? key.split(":") : ["report", key];
    const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], namespaces[ns]);
    if (typeof found !== "string") throw new Error(`no text ${lng}:${key}`);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
  };
}
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A text with a `{{shortId}}` as a pattern capturing the number. */
const withNumber = (t: ReturnType<typeof locale>, key: string) => new RegExp(escape(t(key, { shortId: "\u0000" })).replace("\u0000", "(\\d+)"));

const PHONE = { width: 360, height: 740 };
const ACCEPT_LANGUAGE: Record<Lng, string> = { en: "en", "fr-BE": "fr-BE,fr;q=0.9", "nl-BE": "nl-BE,nl;q=0.9" };

/** The report addresses shown on a room view (the room's, then its equipment items'), read as the administrator. */
async function reportCodesFromRoomView(admin: APIRequestContext, roomId: number): Promise<{ room: string; items: string[] }> {
  const html = await (await admin.get(`/view-room/${roomId}`)).text();
  const room = /https?:\/\/[^\s"<]+\/report\/([A-Za-z0-9_-]+)/.exec(html);
  expect(room, `the room view of room ${roomId} shows its report address`).toBeTruthy();
  const items = [...html.matchAll(/<code class="font-mono text-xs">([A-Za-z0-9_-]{4,32})<\/code>/g)].map((m) => m[1]);
  return { room: room![1], items };
}

/** Whether anyone may report something at this code (its page lists at least one type). */
async function hasTypes(request: APIRequestContext, code: string) {
  const html = await (await request.get(`/report/${code}`)).text();
  return html.includes(`/report/${code}?type=`);
}

/** Rooms of the first entity, through the REST API. */
async function rooms(request: APIRequestContext, headers: Record<string, string>): Promise<{ id: number }[]> {
  const res = await request.get("/api/facilities/rooms?size=100", { headers });
  expect(res.status()).toBe(200);
  return (await res.json()) as { id: number }[];
}

/** Whether the incidents' REST calls are in this build (issue #12 lands them beside this page). */
async function incidentsApi(request: APIRequestContext, headers: Record<string, string>) {
  return (await request.get("/api/incidents?size=1", { headers })).status() === 200;
}

/** Waits for a mail to `to` with exactly `subject` in the outbox. */
async function waitForSubject(to: string, subject: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = readOutbox().find((m) => m.to.toLowerCase() === to.toLowerCase() && m.subject === subject);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The compressed size of a GET as a browser asking for brotli receives it. */
function compressedSize(url: string): Promise<{ bytes: number; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": "br, gzip", "Accept-Language": "en" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ bytes: body.byteLength, encoding: res.headers["content-encoding"], body });
        });
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * An occupier's phone: a browser context of its own in the language `lng` (its Accept-Language), with
 * JavaScript as the project says; `done()` checks its last page with axe and closes it.
 */
async function phone(browser: Browser, baseURL: string, lng: Lng, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL, viewport: PHONE, locale: lng, javaScriptEnabled, extraHTTPHeaders: { "Accept-Language": ACCEPT_LANGUAGE[lng] } });
  const page = await context.newPage();
  const done = async () => {
    const problems = await axeProblemsOnce(page, { javaScriptEnabled });
    await context.close();
    expect(problems, problems.join("\n")).toEqual([]);
  };
  return { page, done };
}

const CASES: { lng: Lng; sticker: "room" | "item"; roomIndex: number }[] = [
  { lng: "en", sticker: "room", roomIndex: 0 },
  { lng: "fr-BE", sticker: "item", roomIndex: 1 },
  { lng: "nl-BE", sticker: "room", roomIndex: 2 },
];

for (const { lng, sticker, roomIndex } of CASES) {
  test(`an occupier reports from a ${sticker}'s sticker on a phone, with a photo and an email (${lng})`, async ({ browser, baseURL, javaScriptEnabled }) => {
    // The page runs no script: JavaScript on or off is the same page. English runs in both projects.
    test.skip(lng !== "en" && !javaScriptEnabled, "the report page runs no script: other languages once (decision 016)");
    test.setTimeout(90_000);
    const t = locale(lng);
    const admin = await webSession(baseURL!, accounts.admin);
    const api = await apiLogin(admin, accounts.admin);
    try {
      // The sticker's address, as the room view shows it (projects use different rooms: no folding between them).
      const list = await rooms(admin, api.headers);
      let code: string | null = null;
      for (const room of list.slice(roomIndex * 2 + (javaScriptEnabled ? 0 : 1))) {
        const codes = await reportCodesFromRoomView(admin, room.id);
        const candidates = sticker === "room" ? [codes.room] : codes.items;
        for (const candidate of candidates) if (await hasTypes(admin, candidate)) code = candidate;
        if (code) break;
      }
      expect(code, `a ${sticker} with something to report`).toBeTruthy();

      const { page, done } = await phone(browser, baseURL!, lng, javaScriptEnabled);
      await page.goto(`/report/${code}`);
      await expect(page.getByRole("heading", { name: t("page.where") })).toBeVisible();
      if (sticker === "item") await expect(page.getByText(t("page.equipment"), { exact: true })).toBeVisible();
      if (lng === "en") {
        // The language switch: a plain post that comes back to the same page.
        await page.getByRole("button", { name: "NL", exact: true }).click();
        await expect(page.getByRole("heading", { name: locale("nl-BE")("page.where") })).toBeVisible();
        await page.getByRole("button", { name: "EN", exact: true }).click();
        await expect(page.getByRole("heading", { name: t("page.where") })).toBeVisible();
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "no sideways scrolling").toBeLessThanOrEqual(0);

      // Choose the first type that applies, answer its yes/no questions, describe, add a photo and an email.
      const types = page.getByRole("region", { name: t("page.whatIsWrong") }).getByRole("link");
      const typeName = ((await types.first().textContent()) ?? "").replace("→", "").trim();
      await types.first().click();
      await expect(page).toHaveURL(/\?type=\d+$/);
      await expect(page.getByRole("heading", { level: 1, name: typeName })).toBeVisible();
      const yes = page.getByRole("radio", { name: t("form.yes") });
      for (let i = 0; i < (await yes.count()); i++) await yes.nth(i).check();
      // Without a description the form comes back with the error beside the field, what was typed kept.
      const email = `${unique("occupier")}@example.test`;
      await page.getByLabel(t("form.email")).fill(email);
      await page.getByLabel(t("form.description")).fill("   ");
      await page.getByRole("button", { name: t("form.submit") }).click();
      await expect(page.locator("#report-description-error")).toHaveText(t("validation.descriptionRequired"));
      await expect(page.getByLabel(t("form.email"))).toHaveValue(email);

      await page.getByLabel(t("form.description")).fill("The tap drips all night, water on the floor.");
      // A phone's photo: stored sideways with an EXIF orientation, a camera and a GPS position.
      await page.getByLabel(t("form.photos")).setInputFiles({ name: "leak.jpg", mimeType: "image/jpeg", buffer: Buffer.from(await jpegWithExif(2600, 1200, 6)) });
      await page.getByRole("button", { name: t("form.submit") }).click();

      await expect(page).toHaveURL(/\?sent=\d+&how=(created|folded)&mail=1$/);
      const heading = page.getByRole("heading", { level: 1, name: withNumber(t, "sent.title") });
      await expect(heading).toBeVisible();
      const shortId = Number(withNumber(t, "sent.title").exec((await heading.textContent()) ?? "")![1]);
      const folded = page.url().includes("how=folded");
      await expect(page.getByText(folded ? t("sent.folded") : t("sent.created"))).toBeVisible();
      await expect(page.getByText(t("sent.mailed"))).toBeVisible();

      // The confirmation, in the reporter's language, leads to the status page.
      const confirmation = await waitForSubject(email, t("mail.confirmation.subject", { shortId }));
      expect(confirmation.link).toMatch(/\/report\/status\/[A-Za-z0-9_-]{20,}$/);
      const statusPath = new URL(confirmation.link!).pathname;
      await page.goto(statusPath);
      await expect(page.getByRole("heading", { level: 1, name: t("status.title", { shortId }) })).toBeVisible();
      await expect(page.getByText(t("incidents:status.0"), { exact: true })).toBeVisible();
      await expect(page.getByText(email)).toHaveCount(0);

      // The staff's side: the incident (with the photo), marked Done; the reporter hears of it. The
      // incidents' REST calls and screens come with issue #12: until they are in the build, stop here.
      if (!(await incidentsApi(admin, api.headers))) {
        test.info().annotations.push({ type: "skipped part", description: "incidents REST calls not in this build (issue #12)" });
        await done();
        return;
      }
      const listed = (await (await admin.get(`/api/incidents?q=${shortId}`, { headers: api.headers })).json()) as { id: number; shortId: number }[];
      const incident = listed.find((row) => row.shortId === shortId);
      expect(incident, `incident #${shortId} in the staff's list`).toBeTruthy();
      const detail = (await (await admin.get(`/api/incidents/${incident!.id}`, { headers: api.headers })).json()) as {
        reporters: string[];
        files: { name?: string; mimeType?: string; url: string }[];
      };
      expect(detail.reporters).toContain(email);
      const photo = detail.files.find((f) => f.mimeType === "image/jpeg");
      expect(photo, "the photo is on the incident").toBeTruthy();
      // Scaled down on the server: upright, within 2048 px, without its EXIF (no GPS position kept).
      const stored = await sharp(await (await admin.get(photo!.url)).body()).metadata();
      expect([stored.width, stored.height, stored.exif]).toEqual([945, 2048, undefined]);
      const table = await (await admin.get(`/incidents?q=${shortId}`)).text();
      expect(table, "the staff table lists the incident").toContain(`/incident/${incident!.id}`);
      expect(await (await admin.get(`/incident/${incident!.id}`)).text(), "the incident view shows the photo").toContain(`src="${photo!.url}"`);

      const markedDone = await admin.put(`/api/incidents/${incident!.id}/status`, { headers: api.headers, data: { status: 2 } });
      expect(markedDone.status()).toBe(200);
      const closing = await waitForSubject(email, t("mail.closed.subject", { shortId, status: t("incidents:status.2") }));
      await page.goto(new URL(closing.link!).pathname);
      await expect(page.getByText(t("status.events.status", { status: t("incidents:status.2") }))).toBeVisible();
      await done();
    } finally {
      await admin.dispose();
    }
  });
}

test("an unknown, archived or other entity's sticker gives the friendly page; a bot's post is dropped", async ({ browser, baseURL, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the same pages without JavaScript: checked once");
  const admin = await webSession(baseURL!, accounts.admin);
  const other = await webSession(baseURL!, accounts.other);
  try {
    const api = await apiLogin(admin, accounts.admin);
    const otherApi = await apiLogin(other, accounts.other);
    // Another entity's room identifier, from its own REST call.
    const otherRoom = (await rooms(other, otherApi.headers))[0];
    const otherCode = ((await (await other.get(`/api/facilities/rooms/${otherRoom.id}`, { headers: otherApi.headers })).json()) as { reportIdentifier: string }).reportIdentifier;
    expect(otherCode).toBeTruthy();
    // A room made and archived by the administrator: its identifier is archived with it.
    // A room with equipment to copy (rooms imported by another spec on this server have none).
    type RoomDetail = { buildingId: number; roomTypeId: number; equipments: { equipmentTypeId: number }[] };
    let template: RoomDetail | undefined;
    let first: { id: number } | undefined;
    for (const room of await rooms(admin, api.headers)) {
      const detail = (await (await admin.get(`/api/facilities/rooms/${room.id}`, { headers: api.headers })).json()) as RoomDetail;
      if (detail.equipments?.length) {
        template = detail;
        first = room;
        break;
      }
    }
    if (!template || !first) throw new Error("no room with equipment in the demo data");
    const made = await admin.post("/api/facilities/rooms", {
      headers: api.headers,
      data: {
        name: unique("Archived room"),
        floor: "3",
        buildingId: template.buildingId,
        roomTypeId: template.roomTypeId,
        roomEquipments: [{ equipmentTypeId: template.equipments[0].equipmentTypeId, internalReferences: [unique("AR")] }],
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const archivedId = ((await made.json()) as { id: number }).id;
    const archivedCode = (await reportCodesFromRoomView(admin, archivedId)).room;
    expect((await admin.get(`/report/${archivedCode}`)).status(), "the new room's sticker works before it is archived").toBe(200);
    // An occupier's scan (no session) is answered from memory once rendered (decision 019): archiving the
    // room must end that at once.
    const scan = async () => (await fetch(`${baseURL}/report/${archivedCode}`)).status;
    expect(await scan()).toBe(200);
    expect(await scan()).toBe(200);
    expect((await admin.delete(`/api/facilities/rooms/${archivedId}`, { headers: api.headers })).status()).toBe(200);
    expect(await scan(), "the kept page ends with the archive").toBe(404);

    for (const lng of ["en", "fr-BE", "nl-BE"] as const) {
      const t = locale(lng);
      const { page, done } = await phone(browser, baseURL!, lng, javaScriptEnabled);
      for (const code of [archivedCode, "ZZZZZZZZZZZZZ", "not a code!"]) {
        const res = await page.goto(`/report/${encodeURIComponent(code)}`);
        expect(res?.status(), `/report/${code}`).toBe(404);
        await expect(page.getByRole("heading", { level: 1, name: t("notFound.title") })).toBeVisible();
        // Nothing about any entity: no name, no colours of theirs, no logo.
        await expect(page.getByText("Demo Campus")).toHaveCount(0);
        await expect(page.locator("img")).toHaveCount(0);
      }
      const res = await page.goto(`/report/status/${"A".repeat(32)}`);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: t("status.notFoundTitle") })).toBeVisible();
      await done();
    }
    const { page, done } = await phone(browser, baseURL!, "en", javaScriptEnabled);
    expect((await page.request.get("/report/ZZZZZZZZZZZZZ/logo")).status()).toBe(404);
    expect((await page.request.get(`/report/${archivedCode}/logo`)).status()).toBe(404);

    // Another entity's sticker is that entity's page only: its name, logo and colours, nothing of the first's.
    const entity = (await (await other.get(`/api/entities/${otherApi.entityId}`, { headers: otherApi.headers })).json()) as Record<string, unknown>;
    const { id: _id, logo: _logo, updatedAt: _updatedAt, ...fields } = entity;
    const logo = `data:image/png;base64,${Buffer.from(pngBytes(40, 40)).toString("base64")}`;
    const saved = await other.put(`/api/entities/${otherApi.entityId}`, {
      headers: otherApi.headers,
      data: { ...fields, templateColor: "#0f766e", templateTextColor: "#ffffff", updateLogo: true, newLogo: logo },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    try {
      expect((await page.goto(`/report/${otherCode}`))?.status()).toBe(200);
      await expect(page.getByText(String(entity.name), { exact: true })).toBeVisible();
      await expect(page.getByText("Demo Campus")).toHaveCount(0);
      const img = page.locator(`img[src="/report/${otherCode}/logo"]`);
      await expect(img).toBeVisible();
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(40);
      await expect(page.locator("header").locator("..")).toHaveAttribute("style", /--brand:\s*#0f766e/);
      const served = await page.request.get(`/report/${otherCode}/logo`);
      expect(served.status()).toBe(200);
      expect(served.headers()["content-type"]).toBe("image/png");
      expect(served.headers()["cache-control"]).toBe("public, max-age=86400");
    } finally {
      const restored = await other.put(`/api/entities/${otherApi.entityId}`, {
        headers: otherApi.headers,
        data: { ...fields, updateLogo: entity.logo === null, newLogo: null },
      });
      expect(restored.status()).toBe(200);
    }

    // The honeypot: a post that fills it gets the thank-you, and nothing is saved.
    const { room: code } = await reportCodesFromRoomView(admin, first.id);
    const html = await (await admin.get(`/report/${code}`)).text();
    const typeId = /\?type=(\d+)/.exec(html)![1];
    const before = readOutbox().length;
    const bot = await page.request.post(`/report/${code}?type=${typeId}`, {
      multipart: { incidentTypeId: typeId, description: "Buy cheap things", email: "bot@example.test", website: "https://spam.example" },
      headers: { origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
    expect(bot.status()).toBe(303);
    expect(bot.headers().location).toBe(`/report/${code}?sent`);
    // A real report sent after it: once its confirmation has left (the queue sends in order), the bot's
    // would have too.
    const witness = `${unique("witness")}@example.test`;
    const real = await page.request.post(`/report/${code}?type=${typeId}`, {
      multipart: { incidentTypeId: typeId, description: "The tap drips", email: witness },
      headers: { origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
    expect(real.status()).toBe(303);
    await expect.poll(() => readOutbox().slice(before).some((m) => m.to === witness), { timeout: 20_000 }).toBe(true);
    expect(readOutbox().slice(before).filter((m) => m.to === "bot@example.test")).toEqual([]);
    await done();
  } finally {
    await admin.dispose();
    await other.dispose();
  }
});

test("the report page runs no script and weighs under 50 KB compressed with its stylesheet", async ({ baseURL, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, "an HTTP check: once");
  const admin = await webSession(baseURL!, accounts.admin);
  try {
    const api = await apiLogin(admin, accounts.admin);
    const [first] = await rooms(admin, api.headers);
    const { room: code } = await reportCodesFromRoomView(admin, first.id);
    const typeId = /\?type=(\d+)/.exec(await (await admin.get(`/report/${code}`)).text())![1];
    for (const address of [`/report/${code}`, `/report/${code}?type=${typeId}`]) {
      const page = await compressedSize(`${baseURL}${address}`);
      expect(page.encoding, address).toBe("br");
      const html = await (await admin.get(address)).text();
      expect(html, `${address} has no script`).not.toMatch(/<script\b/i);
      expect(html).not.toMatch(/modulepreload/);
      const stylesheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
      expect(stylesheets.length).toBeGreaterThan(0);
      let total = page.bytes;
      for (const href of stylesheets) total += (await compressedSize(`${baseURL}${href}`)).bytes;
      test.info().annotations.push({ type: "weight", description: `${address}: ${page.bytes} B of HTML, ${total} B with CSS (brotli)` });
      expect(total, `${address} with its stylesheets, compressed`).toBeLessThan(50 * 1024);
    }
  } finally {
    await admin.dispose();
  }
});

test("staff report an incident from the room view, as themselves", async ({ page, login, baseURL }) => {
  const admin = await webSession(baseURL!, accounts.admin);
  const api = await apiLogin(admin, accounts.admin);
  const list = await rooms(admin, api.headers);
  await admin.dispose();
  const t = locale("en");
  await login(accounts.admin, { consent: true });
  let roomId: number | null = null;
  for (const room of list.slice(6)) {
    await page.goto(`/view-room/${room.id}?dialog=report-incident`);
    if ((await page.getByRole("dialog").getByRole("listitem").getByRole("link").count()) > 0) {
      roomId = room.id;
      break;
    }
  }
  expect(roomId, "a room with something to report").toBeTruthy();
  await page.goto(`/view-room/${roomId}`);
  await page.getByRole("link", { name: t("staff.action") }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("listitem").getByRole("link").first().click();
  await expect(page).toHaveURL(/dialog=report-incident&type=\d+/);
  await dialog.getByLabel(t("form.description")).fill("   ");
  await dialog.getByRole("button", { name: t("staff.submit") }).click();
  await expect(dialog.locator("#staff-report-description-error")).toHaveText(t("validation.descriptionRequired"));
  await dialog.getByLabel(t("form.description")).fill("Seen during the round: the light flickers.");
  await dialog.getByLabel(t("form.photos")).setInputFiles({ name: "round.png", mimeType: "image/png", buffer: Buffer.from(pngBytes(8, 8)) });
  await dialog.getByRole("button", { name: t("staff.submit") }).click();
  await expect(page).toHaveURL(/\/incident\/\d+$/);
  await expect(page.locator('[data-type="success"]').last()).toHaveText(/Incident #\d+ reported|Added to the open incident #\d+/);
});
