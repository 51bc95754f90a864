import type { APIRequestContext } from "@playwright/test";
import config from "../../playwright.config";
import { accounts, expect, test } from "./fixtures";
import { fakeCameraFlags, showToCamera } from "./fake-camera";
import { apiLogin, webSession } from "./helpers";

/**
 * Staff open a room or an equipment item from its sticker at /scan (issue 64): the code typed (with
 * JavaScript on and off), or read by the camera (Chromium's fake camera playing a video of the sticker's
 * QR code). The technician's own room opens its staff page, not the occupier's report page; another
 * entity's sticker, an unknown code and a text that is no code stay on /scan with the reason, and an
 * address typed in is never followed.
 */
const NOT_FOUND = "No room or equipment item that you can open has this code. It may belong to another organisation, have been replaced, or be in a place you are not linked to.";
const NOT_A_CODE = "This is not the code of a Caretaker sticker. Check what you typed.";

// Nothing to show until a test writes a sticker (Chromium opens the file when a page starts the camera).
showToCamera("nothing yet");
test.use({
  viewport: { width: 390, height: 844 },
  launchOptions: { ...config.use?.launchOptions, args: [...(config.use?.launchOptions?.args ?? []), ...fakeCameraFlags()] },
});

interface Sticker {
  roomId: number;
  /** The address the sticker's QR code holds, as the room view shows it. */
  url: string;
  code: string;
}

/** The first room a person's REST list gives (their reach), with its sticker's address read from its room view. */
async function firstRoomSticker(baseURL: string, email: string): Promise<Sticker> {
  const session = await webSession(baseURL, email);
  try {
    const api = await apiLogin(session, email);
    const list = await session.get("/api/facilities/rooms?size=1", { headers: api.headers });
    expect(list.status()).toBe(200);
    const [room] = (await list.json()) as { id: number }[];
    const html = await (await session.get(`/view-room/${room.id}`)).text();
    const found = /https?:\/\/[^\s"<]+\/report\/([A-Za-z0-9_-]+)/.exec(html);
    expect(found, `the room view of room ${room.id} shows its sticker's address`).toBeTruthy();
    return { roomId: room.id, url: found![0], code: found![1] };
  } finally {
    await session.dispose();
  }
}

/** An equipment item the person reaches, with its sticker's code, through the REST list. */
async function firstItemSticker(session: APIRequestContext, email: string): Promise<{ id: number; code: string }> {
  const api = await apiLogin(session, email);
  const list = await session.get("/api/equipments?size=20", { headers: api.headers });
  expect(list.status()).toBe(200);
  const item = ((await list.json()) as { id: number; reportIdentifier: string | null }[]).find((i) => i.reportIdentifier);
  expect(item, "an equipment item with a sticker").toBeTruthy();
  return { id: item!.id, code: item!.reportIdentifier! };
}

test("a typed code opens its room's or item's staff page; other codes stay on /scan with the reason", async ({ page, login, baseURL }) => {
  const own = await firstRoomSticker(baseURL!, accounts.technician);
  const other = await firstRoomSticker(baseURL!, accounts.other);
  await login(accounts.technician, { consent: true });

  // The header's Scan button opens the screen.
  await page.goto("/");
  await page.getByRole("link", { name: "Scan a code" }).click();
  await expect(page).toHaveURL(/\/scan$/);
  await expect(page.getByRole("heading", { level: 1, name: "Scan a code" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "the screen fits a phone's 390 px").toBeLessThanOrEqual(390);

  const typeCode = async (text: string) => {
    await page.getByLabel("Code on the sticker").fill(text);
    await page.getByRole("button", { name: "Open", exact: true }).click();
  };

  // The bare code, in lower case as someone may type it.
  await typeCode(own.code.toLowerCase());
  await expect(page).toHaveURL(new RegExp(`/view-room/${own.roomId}$`));

  // The whole address, on a host that is not ours: only the code is read, the address is not followed.
  await page.goto("/scan");
  await typeCode(`https://elsewhere.example/report/${own.code}`);
  await expect(page).toHaveURL(new RegExp(`/view-room/${own.roomId}$`));

  // Another entity's sticker says nothing of it.
  await page.goto("/scan");
  await typeCode(other.url);
  await expect(page).toHaveURL(/\/scan\?code=/);
  await expect(page.getByRole("alert")).toHaveText(NOT_FOUND);
  await expect(page.getByLabel("Code on the sticker")).toHaveValue(other.url);

  // A made-up code, then an address that names no sticker.
  await typeCode("ZZZZZZZZZZZZZ");
  await expect(page).toHaveURL(/\/scan\?code=ZZZZZZZZZZZZZ$/);
  await expect(page.getByRole("alert")).toHaveText(NOT_FOUND);
  await typeCode("https://elsewhere.example/login");
  await expect(page).toHaveURL(/\/scan\?code=https/);
  await expect(page.getByRole("alert")).toHaveText(NOT_A_CODE);
  expect(new URL(page.url()).host).toBe(new URL(baseURL!).host);
});

test("an equipment item's code opens its staff page", async ({ page, login, baseURL }) => {
  const session = await webSession(baseURL!, accounts.admin);
  try {
    const item = await firstItemSticker(session, accounts.admin);
    await login(accounts.admin, { consent: true });
    await page.goto(`/scan?code=${item.code}`);
    await expect(page).toHaveURL(new RegExp(`/view-equipment/${item.id}$`));
  } finally {
    await session.dispose();
  }
});

test.describe("the camera", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the camera needs JavaScript");

  test("reads a room's sticker and opens the room's staff page", async ({ page, login, baseURL }) => {
    const own = await firstRoomSticker(baseURL!, accounts.technician);
    showToCamera(own.url);
    await login(accounts.technician, { consent: true });
    await page.goto("/scan");
    await page.getByRole("button", { name: "Use the camera" }).click();
    await expect(page).toHaveURL(new RegExp(`/view-room/${own.roomId}$`), { timeout: 20_000 });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("with the browser's own BarcodeDetector, its reading opens the room and the decoding library is not downloaded", async ({ page, login, baseURL }) => {
    const own = await firstRoomSticker(baseURL!, accounts.technician);
    showToCamera("nothing yet");
    // A detector as Chrome on Android has one: it reads QR codes, here whatever the camera shows is the sticker.
    await page.addInitScript((url) => {
      class FakeDetector {
        static getSupportedFormats() {
          return Promise.resolve(["aztec", "qr_code"]);
        }
        constructor(options: { formats: string[] }) {
          if (!options.formats.includes("qr_code")) throw new TypeError("qr_code expected");
        }
        detect(video: HTMLVideoElement) {
          return Promise.resolve(video.videoWidth > 0 ? [{ rawValue: url, format: "qr_code" }] : []);
        }
      }
      (window as unknown as { BarcodeDetector: unknown }).BarcodeDetector = FakeDetector;
    }, own.url);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await login(accounts.technician, { consent: true });
    await page.goto("/scan");
    await page.getByRole("button", { name: "Use the camera" }).click();
    await expect(page).toHaveURL(new RegExp(`/view-room/${own.roomId}$`), { timeout: 20_000 });
    expect(scripts.filter((url) => /jsqr/i.test(url))).toEqual([]);
  });

  test("without the camera's permission says so, and the typed code still works", async ({ page, login, baseURL }) => {
    const own = await firstRoomSticker(baseURL!, accounts.technician);
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
    });
    await login(accounts.technician, { consent: true });
    await page.goto("/scan");
    await page.getByRole("button", { name: "Use the camera" }).click();
    await expect(page.getByRole("status").filter({ hasText: "The camera could not be opened" })).toHaveText(
      "The camera could not be opened (no camera, or permission refused). Type the code below instead.",
    );
    await page.getByLabel("Code on the sticker").fill(own.code);
    await page.getByRole("button", { name: "Open", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/view-room/${own.roomId}$`));
  });

  test("refuses another entity's sticker with the reason", async ({ page, login, baseURL }) => {
    const other = await firstRoomSticker(baseURL!, accounts.other);
    showToCamera(other.url);
    await login(accounts.technician, { consent: true });
    await page.goto("/scan");
    await page.getByRole("button", { name: "Use the camera" }).click();
    await expect(page.getByRole("alert")).toHaveText(NOT_FOUND, { timeout: 20_000 });
    await expect(page).toHaveURL(/\/scan\?code=/);
    // The camera is ready to read another sticker.
    await expect(page.getByRole("button", { name: "Use the camera" })).toBeEnabled();
  });
});
