import type { BrowserContext, Page } from "@playwright/test";
import { accounts, axeProblems, expect, test, unique } from "./fixtures";
import { apiLogin } from "./helpers";

/**
 * The technician in the basement (issue 64): with JavaScript on, the service worker keeps the day's pages
 * of the signed-in person; offline, the task list and a task open from that copy with "Offline, saved at
 * …", a task marked done with a note and a comment on an incident wait as "Waiting to send (2)" and reach
 * the server in that order when the network is back (read back through REST). A replay the server refuses
 * is shown with its reason. Logging out clears the copy: the next person on the same browser profile sees
 * nothing of it offline. With JavaScript off nothing is registered and the offline page is a plain page.
 */

/** Waits until the worker controls the page and has kept `path` for the signed-in person. */
async function waitForCopy(page: Page, path: string) {
  await expect
    .poll(
      () =>
        page.evaluate(async (wanted) => {
          // Active (its files precached) and in charge of this page.
          const registration = await navigator.serviceWorker?.getRegistration();
          if (registration?.active?.state !== "activated" || !navigator.serviceWorker.controller) return false;
          for (const name of await caches.keys()) {
            if (!name.startsWith("caretaker-kept-")) continue;
            if (await (await caches.open(name)).match(new URL(wanted, location.href).href)) return true;
          }
          return false;
        }, path),
      { timeout: 60_000, message: `${path} kept` },
    )
    .toBe(true)
    .catch(async (error: Error) => {
      const worker = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker?.getRegistration();
        return { active: registration?.active?.state, installing: registration?.installing?.state, waiting: registration?.waiting?.state, controlled: !!navigator.serviceWorker?.controller, caches: await caches.keys() };
      });
      throw new Error(`${error.message}\nkept: ${JSON.stringify(await keptPaths(page))}\nworker: ${JSON.stringify(worker)}`);
    });
}

async function keptPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const found: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith("caretaker-kept-")) continue;
      for (const request of await (await caches.open(name)).keys()) found.push(new URL(request.url).pathname);
    }
    return found;
  });
}

async function signIn(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill("Demo-pass-1!");
  await page.getByLabel(/^Password/).press("Enter");
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

// The other specs block the service worker (playwright.config.ts); this one is about it.
test.use({ serviceWorkers: "allow" });

test.describe("offline work (JavaScript on)", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the service worker needs JavaScript");
  // A new browser profile each: the worker installs (the app's files) and makes the copy first.
  test.setTimeout(150_000);

  test("a technician's day opens offline, two writes wait and reach the server in order", async ({ page, context, request }) => {
    await signIn(page, accounts.technician);
    await page.goto("/offline");
    await waitForCopy(page, "/task");

    // The task of the day to mark done: the first of the kept list whose page is kept.
    const taskLinks = page.locator('main a[href^="/view-task/"]');
    await expect(taskLinks.first()).toBeVisible();
    const taskHref = (await taskLinks.first().getAttribute("href"))!;
    const incidentHref = (await page.locator('main a[href^="/incident/"]').first().getAttribute("href"))!;
    await waitForCopy(page, taskHref);
    await waitForCopy(page, incidentHref);

    await goOffline(context, page);
    await page.goto("/task");
    await expect(page.getByRole("heading", { level: 1, name: "Tasks" })).toBeVisible();
    await expect(page.getByText(/^Offline, saved at /)).toBeVisible();

    await page.goto(taskHref);
    await expect(page.getByText(/^Offline, saved at /)).toBeVisible();
    const note = unique("Offline note");
    const location = page.locator("form").filter({ has: page.getByRole("button", { name: "Mark done" }) }).first();
    await location.getByLabel("Note (optional)").fill(note);
    await location.getByRole("button", { name: "Mark done" }).click();
    await expect(page.getByText("Waiting to send (1)")).toBeVisible();

    await page.goto(incidentHref);
    const comment = unique("Comment written offline");
    await page.getByRole("textbox", { name: "Comment", exact: true }).fill(comment);
    await page.getByRole("button", { name: "Post comment" }).click();
    await expect(page.getByText("Waiting to send (2)")).toBeVisible();
    // The banner and the count are part of the page for assistive technology too.
    expect(await axeProblems(page)).toEqual([]);

    await context.setOffline(false);
    await expect(page.getByText(/^Waiting to send/)).toHaveCount(0, { timeout: 30_000 });

    // Both reached the server, in the order they were made.
    const api = await apiLogin(request, accounts.technician);
    const [planId, day] = taskHref.split("/").slice(2);
    const tasks = (await (await request.get(`/api/tasks?from=${day}&to=${day}&plan=${planId}&status=all`, { headers: api.headers })).json()) as { note: string | null; doneAt: string | null; status: number }[];
    const done = tasks.find((task) => task.note === note);
    expect(done, "the task marked done offline").toBeDefined();
    const incidentId = incidentHref.split("/")[2];
    const comments = (await (await request.get(`/api/incidents/${incidentId}/comments`, { headers: api.headers })).json()) as { body: string; createdAt: string }[] | { items: { body: string; createdAt: string }[] };
    const list = Array.isArray(comments) ? comments : comments.items;
    const posted = list.find((c) => c.body === comment);
    expect(posted, "the comment posted offline").toBeDefined();
    expect(Date.parse(done!.doneAt!)).toBeLessThanOrEqual(Date.parse(posted!.createdAt));
  });

  test("a replay the server refuses is shown with its reason", async ({ page, context }) => {
    await signIn(page, accounts.technician);
    await page.goto("/offline");
    const taskHref = (await page.locator('main a[href^="/view-task/"]').first().getAttribute("href"))!;
    await waitForCopy(page, taskHref);

    await goOffline(context, page);
    await page.goto(taskHref);
    // No hours and no minutes: the server refuses the entry ("at least one minute").
    const record = page.locator("form").filter({ has: page.getByRole("button", { name: "Record time" }) });
    await record.getByRole("button", { name: "Record time" }).click();
    await expect(page.getByText("Waiting to send (1)")).toBeVisible();

    await context.setOffline(false);
    const refused = page.getByRole("alert").filter({ hasText: "Not sent: time recorded" });
    await expect(refused).toBeVisible({ timeout: 30_000 });
    await expect(refused).toContainText("minute");
    await refused.getByRole("button", { name: "Dismiss" }).click();
    await expect(refused).toHaveCount(0);
  });

  test("a session that ended while a write waited asks for a login, keeps the write and sends it after", async ({ page, context, request }) => {
    await signIn(page, accounts.technician);
    await page.goto("/offline");
    const incidentHref = (await page.locator('main a[href^="/incident/"]').first().getAttribute("href"))!;
    await waitForCopy(page, incidentHref);

    await goOffline(context, page);
    await page.goto(incidentHref);
    const comment = unique("Comment kept over a login");
    await page.getByRole("textbox", { name: "Comment", exact: true }).fill(comment);
    await page.getByRole("button", { name: "Post comment" }).click();
    await expect(page.getByText("Waiting to send (1)")).toBeVisible();

    // The session ends meanwhile (expired, or signed out elsewhere): the replay meets the sign-in page.
    await context.clearCookies();
    await context.setOffline(false);
    const ask = page.getByRole("alert").filter({ hasText: "Your session has ended: log in again to send the changes that are waiting." });
    await expect(ask).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Waiting to send (1)")).toBeVisible();
    expect(await axeProblems(page)).toEqual([]);

    // The same person signs in again: the waiting comment is sent, once.
    await ask.getByRole("link", { name: "Log in" }).click();
    await page.getByLabel(/^Email/).fill(accounts.technician);
    await page.getByLabel(/^Password/).fill("Demo-pass-1!");
    await page.getByLabel(/^Password/).press("Enter");
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    const api = await apiLogin(request, accounts.technician);
    const incidentId = incidentHref.split("/")[2];
    const bodies = async () => {
      const answer = (await (await request.get(`/api/incidents/${incidentId}/comments`, { headers: api.headers })).json()) as { body: string }[] | { items: { body: string }[] };
      return (Array.isArray(answer) ? answer : answer.items).filter((c) => c.body === comment).length;
    };
    await expect.poll(bodies, { timeout: 30_000 }).toBe(1);
    await expect(page.getByText(/^Waiting to send/)).toHaveCount(0);
  });

  test("logging out clears the copy: the next person on this browser sees nothing of it offline", async ({ page, context }) => {
    await signIn(page, accounts.technician);
    await page.goto("/offline");
    const incidentHref = (await page.locator('main a[href^="/incident/"]').first().getAttribute("href"))!;
    await waitForCopy(page, incidentHref);
    expect(await keptPaths(page)).toContain("/task");

    await page.locator("[data-user-menu] > summary").click();
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(/\/login/);
    await expect.poll(() => keptPaths(page)).toEqual([]);

    // Offline now, nobody's page opens: the incident is not there, only the short offline notice.
    await goOffline(context, page);
    await page.goto(incidentHref).catch(() => undefined);
    await expect(page.locator("body")).not.toContainText("#");
    await expect(page.getByRole("heading", { name: "Offline" })).toBeVisible();
    await context.setOffline(false);

    // A second person signs in on the same profile: their own copy, none of the first person's.
    await signIn(page, accounts.manager);
    await page.goto("/offline");
    await waitForCopy(page, "/task");
    const names = await page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("caretaker-kept-")));
    const technician = await apiLogin(page.request, accounts.technician);
    expect(names).toEqual([expect.not.stringContaining(`-u${technician.userId}`)]);
  });
});

test.describe("offline page (JavaScript off)", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the page without JavaScript");

  test("no service worker without JavaScript; the offline page lists what would be kept", async ({ page, login }) => {
    await login(accounts.technician);
    await page.goto("/offline");
    await expect(page.getByRole("heading", { level: 1, name: "Available offline" })).toBeVisible();
    await expect(page.getByRole("link", { name: "My tasks" })).toBeVisible();
    await expect(page.getByRole("link", { name: "My open incidents" })).toBeVisible();
  });

  test("a post the worker sends again with its id is applied once; the second send is answered as done", async ({ page, login, request }) => {
    await login(accounts.technician);
    const { pages } = (await (await page.request.get("/offline/pages")).json()) as { pages: string[] };
    const incident = pages.find((p) => /^\/incident\/\d+$/.test(p))!;
    expect(incident, "an open incident of the technician").toBeTruthy();
    const body = unique("Sent twice");
    const writeId = crypto.randomUUID();
    const send = () => page.request.post(incident, { multipart: { intent: "comment", body }, headers: { "X-Offline-Write": writeId }, maxRedirects: 0 });
    expect([302, 303]).toContain((await send()).status());
    const again = await send();
    expect(again.status()).toBe(303);
    expect(again.headers().location).toBe(incident);

    const api = await apiLogin(request, accounts.technician);
    const answer = (await (await request.get(`/api/incidents/${incident.split("/")[2]}/comments`, { headers: api.headers })).json()) as { body: string }[] | { items: { body: string }[] };
    expect((Array.isArray(answer) ? answer : answer.items).filter((c) => c.body === body)).toHaveLength(1);
  });

  test("a page kept for someone is never given to another person's session", async ({ page, login }) => {
    await login(accounts.technician);
    const own = await page.request.get("/offline/pages");
    expect(own.status()).toBe(200);
    const { person, pages } = (await own.json()) as { person: string; pages: string[] };
    expect(pages.slice(0, 3)).toEqual(["/offline", "/task", "/incidents"]);
    const asked = (key: string) => ({ headers: { "X-Kept-For": key } });
    expect((await page.request.get("/task", asked(person))).status()).toBe(200);
    // Another person of the entity, or of another entity: refused, with nothing of the page.
    const other = person.replace(/-u\d+$/, "-u999999");
    for (const key of [other, "e999999-u1"]) {
      for (const path of ["/task", "/offline", pages.find((p) => p.startsWith("/incident/")) ?? "/incidents"]) {
        const answer = await page.request.get(path, asked(key));
        expect(answer.status(), `${path} for ${key}`).toBe(409);
        // No screen's data: neither the task list's nor the incident's.
        const body = await answer.text();
        expect(body).not.toContain("plannedMaintenanceId");
        expect(body).not.toContain("shortId");
      }
      expect((await page.request.get("/offline/pages", asked(key))).status()).toBe(409);
    }
  });
});
