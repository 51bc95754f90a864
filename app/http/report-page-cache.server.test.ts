import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { reportIdentifiers } from "~/db/schema";
import { localeCookie } from "~/i18n.server";
import { createBuilding, createEntity, createRoom } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { MAX_POSTS_PER_ADDRESS, REPORTS_BEFORE_CAPTCHA, reportLimits } from "./report-limits.server";
import { type PublicPageRequest, reportPageCacheKey } from "./report-page.server";

/**
 * Which report pages the public page cache may keep, under which key and for which entity (decision 019):
 * the page and its form of a known sticker for a visitor without a session, keyed by path, language and
 * cookies; never a page that shows the visitor's own limits or captcha question.
 */
let database: Database;
let code: string;
let entityId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  entityId = (await createEntity(database.db)).id;
  const building = await createBuilding(database.db, { entityId });
  const room = await createRoom(database.db, { entityId, buildingId: building.id });
  [{ code }] = await database.db.select({ code: reportIdentifiers.code }).from(reportIdentifiers).where(eq(reportIdentifiers.roomId, room.id));
});
afterAll(async () => {
  await database?.close();
});

const MULTIPLIER = 7; // its own limits, apart from other tests'
const visitor = (over: Partial<PublicPageRequest> = {}): PublicPageRequest => ({
  url: `/report/${code}`,
  cookie: null,
  acceptLanguage: null,
  clientAddress: "198.51.100.1",
  ...over,
});
const keyOf = async (req: PublicPageRequest) => (await reportPageCacheKey(req, { db: database.db, rateLimitMultiplier: MULTIPLIER }))?.key ?? null;

describe("the report page's cache key", () => {
  it("keys the page and its form by path and language, for the sticker's entity", async () => {
    expect((await reportPageCacheKey(visitor(), { db: database.db, rateLimitMultiplier: MULTIPLIER }))?.entityId).toBe(entityId);
    const en = await keyOf(visitor());
    const fr = await keyOf(visitor({ acceptLanguage: "fr-BE,fr;q=0.9" }));
    const nl = await keyOf(visitor({ cookie: await localeCookie.serialize("nl-BE") }));
    const form = await keyOf(visitor({ url: `/report/${code}?type=12` }));
    expect(en).not.toBeNull();
    expect(new Set([en, fr, nl, form]).size).toBe(4);
    expect(fr).toContain("fr-BE");
    expect(nl).toContain("nl-BE");
    expect(await keyOf(visitor({ clientAddress: "198.51.100.2" }))).toBe(en);
  });

  it("gives no key to other pages, other queries, an unknown sticker, a signed-in visitor or an unreadable path", async () => {
    const urls = ["/report/status/abc", `/report/${code}?sent=12&how=folded`, `/report/${code}?type=1&x=2`, `/report/${code}?type=abc`, "/report/UNKNOWN234567", "/report/%E0%A4%A", "/facilities"];
    for (const url of urls) expect(await keyOf(visitor({ url })), url).toBeNull();
    expect(await keyOf(visitor({ cookie: "consent=1; __session=abc" }))).toBeNull();
  });

  it("gives no key when the page must show the visitor's captcha question or limits", async () => {
    const limits = reportLimits(MULTIPLIER);
    const address = "198.51.100.77";
    for (let i = 0; i < REPORTS_BEFORE_CAPTCHA * MULTIPLIER; i++) await limits.recordReport(address);
    expect(await keyOf(visitor({ clientAddress: address })), "the page: no question").not.toBeNull();
    expect(await keyOf(visitor({ clientAddress: address, url: `/report/${code}?type=3` })), "the form").toBeNull();
    for (let i = 0; i < MAX_POSTS_PER_ADDRESS * MULTIPLIER; i++) await limits.admit(address, `code${i}`);
    expect(await keyOf(visitor({ clientAddress: address })), "over its limits").toBeNull();
  });
});
