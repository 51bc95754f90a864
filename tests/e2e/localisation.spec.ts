import type { Page } from "@playwright/test";
import { contrastRatio, parseHex, type Rgb } from "../../app/lib/contrast";
import { accounts, expect, test } from "./fixtures";
import { apiLogin, continueToEntity, fillAccount, setLanguage } from "./helpers";

/**
 * Texts in the user's language: country names on the three address forms, screen titles, and the
 * header's colours; with JavaScript on, also that the server-rendered page hydrates without a
 * mismatch (the browser shows the server's country names).
 */

/** Collects console errors and page errors (React reports hydration mismatches there). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** The options of a country select: [value, text]. */
async function countryOptions(page: Page, select = page.locator('select[name$="country"]').first()) {
  return select.locator("option").evaluateAll((options) => options.map((o) => [(o as HTMLOptionElement).value, o.textContent ?? ""]));
}

async function expectCountryNames(page: Page, names: { BE: string; DE: string; placeholder: string }) {
  await expect(page.locator('select[name$="country"] option[value="BE"]').first()).toHaveText(names.BE);
  const options = await countryOptions(page);
  expect(options).toHaveLength(250); // the placeholder and 249 countries
  expect(options[0]).toEqual(["", names.placeholder]);
  expect(options.filter(([, text]) => /^countries\.|^[A-Z]{2}$/.test(text))).toEqual([]);
  expect(options).toContainEqual(["BE", names.BE]);
  expect(options).toContainEqual(["DE", names.DE]);
}

test.describe("country names", () => {
  test("entity settings and the building form name every country in the user's language", async ({ page, javaScriptEnabled, login }) => {
    // With JavaScript, the server's names and the hydrated page's are both checked.
    test.skip(!javaScriptEnabled, "the same server markup and actions as with JavaScript: once (the suite's time, decision 016)");
    test.setTimeout(150_000);
    const errors = watchErrors(page);
    await login(accounts.admin);
    try {
      for (const [lng, names] of [
        ["en", { BE: "Belgium", DE: "Germany", placeholder: "Select a country" }],
        ["fr-BE", { BE: "Belgique", DE: "Allemagne", placeholder: "Sélectionnez un pays" }],
        ["nl-BE", { BE: "België", DE: "Duitsland", placeholder: "Kies een land" }],
      ] as const) {
        await setLanguage(page, lng);
        for (const path of ["/settings?tab=entity", "/add-building"]) {
          await page.goto(path);
          await expect(page.locator("html")).toHaveAttribute("lang", lng);
          if (javaScriptEnabled) await page.waitForFunction(() => document.readyState === "complete");
          await expectCountryNames(page, names);
          // The others are sorted by name with the language's collation.
          const others = (await countryOptions(page)).slice(6).map(([, text]) => text);
          const collator = new Intl.Collator(lng);
          expect([...others].sort(collator.compare)).toEqual(others);
        }
      }
      // The server's markup and the browser's first render agree (no hydration mismatch).
      expect(errors.filter((e) => /hydrat|did not match|server rendered|Minified React error #(418|419|422|423|425)\b/i.test(e))).toEqual([]);
    } finally {
      await setLanguage(page, "en");
    }
  });

  test("sign-up offers the same list", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "the same server markup and actions as with JavaScript: once (the suite's time, decision 016)");
    await page.goto("/signup");
    await fillAccount(page, { email: `countries-${Date.now()}@example.test` });
    await continueToEntity(page);
    await expectCountryNames(page, { BE: "Belgium", DE: "Germany", placeholder: "Select a country" });
  });
});

test.describe("screen titles", () => {
  test("each screen has its own title, in the user's language, also after client-side navigation", async ({ page, login, javaScriptEnabled }) => {
    // Without JavaScript every title is the server's, which the JavaScript run sees first too.
    test.skip(!javaScriptEnabled, "the same server markup and actions as with JavaScript: once (the suite's time, decision 016)");
    await page.goto("/login");
    await expect(page).toHaveTitle("Login · Caretaker");
    await expect(page.locator("head title")).toHaveCount(1);
    await login(accounts.admin);
    await page.goto("/facilities");
    await expect(page).toHaveTitle("Facilities · Caretaker");
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Equipments" }).first().click();
    await expect(page).toHaveURL(/\/equipments/);
    await expect(page).toHaveTitle("Equipments · Caretaker");
    await expect(page.locator("head title")).toHaveCount(1);
    await page.goto("/no/such/page");
    await expect(page).toHaveTitle("Page not found · Caretaker");
    try {
      await setLanguage(page, "nl-BE");
      await page.goto("/settings");
      await expect(page).toHaveTitle("Instellingen · Caretaker");
    } finally {
      await setLanguage(page, "en");
    }
  });
});

test.describe("header colours", () => {
  test("every header text contrasts at least 4.5:1 with the entity's header colour", async ({ page, request, login, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "the same server markup and actions as with JavaScript: once (the suite's time, decision 016)");
    // The second entity's administrator; the colours are put back at the end.
    const auth = await apiLogin(request, accounts.other);
    const headers = auth.headers;
    const original = await (await request.get(`/api/entities/${auth.entityId}`, { headers })).json();
    const { id: _id, logo: _logo, updatedAt: _updatedAt, ...fields } = original;
    const save = (templateColor: string, templateTextColor: string) =>
      request.put(`/api/entities/${auth.entityId}`, { headers, data: { ...fields, templateColor, templateTextColor, updateLogo: false, newLogo: null } });
    await login(accounts.other);
    try {
      for (const [color, text] of [
        ["#0f766e", "#ffffff"],
        ["#0f766e", "#99f6e4"], // too light on teal: adjusted
        ["#fde047", "#ffffff"], // white on yellow: turned dark
      ]) {
        expect((await save(color, text)).status()).toBe(200);
        await page.goto("/facilities");
        const header = page.getByRole("banner");
        const colours = await header.evaluate((el) => {
          const bg = getComputedStyle(el).backgroundColor;
          // The background a text is drawn on: its own, or the nearest ancestor's that is not transparent.
          const backdrop = (node: Element | null): string => {
            for (let n = node; n; n = n.parentElement) {
              const colour = getComputedStyle(n).backgroundColor;
              if (colour !== "rgba(0, 0, 0, 0)") return colour;
            }
            return "rgb(255, 255, 255)";
          };
          // Visible texts drawn on the header colour (not the open menus, not the badges).
          const texts = [...el.querySelectorAll<HTMLElement>("a, summary, span, p, button")]
            .filter((node) => node.checkVisibility() && node.offsetWidth > 1)
            .filter((node) => [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent!.trim()))
            .filter((node) => backdrop(node) === bg)
            .map((node) => ({ text: node.textContent!.trim(), color: getComputedStyle(node).color }));
          return { bg, texts };
        });
        const rgb = (css: string) => (css.match(/\d+/g) ?? []).slice(0, 3).map(Number) as unknown as Rgb;
        expect(rgb(colours.bg)).toEqual(parseHex(color));
        expect(colours.texts.length).toBeGreaterThan(1);
        for (const t of colours.texts) {
          expect(contrastRatio(rgb(t.color), rgb(colours.bg)), `${t.text} (${t.color}) on ${color}`).toBeGreaterThanOrEqual(4.5);
        }
      }
      // The settings preview shows what the header will use, and says so when the text colour changes.
      await page.goto("/settings?tab=entity");
      await expect(page.locator("[data-color-adjusted]")).toContainText("the header will use");
    } finally {
      expect((await save(original.templateColor, original.templateTextColor)).status()).toBe(200);
    }
  });
});
