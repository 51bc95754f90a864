import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3777";
const [,, email, lang, width, ...paths] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium-headless-shell" });
const ctx = await browser.newContext({ viewport: { width: Number(width), height: 900 }, javaScriptEnabled: process.env.JS !== "0" });
const page = await ctx.newPage();
await page.goto(base + "/login");
await page.getByLabel("Email").fill(email);
await page.getByLabel("Password").fill("Demo-pass-1!");
await page.getByRole("button", { name: "Login" }).click();
await page.waitForURL((u) => !u.pathname.endsWith("/login"));
if (lang !== "en") { await page.context().addCookies([{ name: "lng", value: lang, url: base }]); }
for (const p of paths) {
  const res = await page.goto(base + p);
  await page.waitForLoadState("load");
  const name = `/tmp/shots/${email.split("@")[0]}-${width}-${p.replace(/[^a-z0-9]+/gi, "_")}.png`;
  await page.screenshot({ path: name, fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  console.log(res.status(), p, "overflow", overflow, name, await page.title());
}
await browser.close();
