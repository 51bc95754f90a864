import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { accounts, expect, horizontalOverflow, test } from "./fixtures";
import { fieldError, setLanguage, successToast, webSession } from "./helpers";

/**
 * The incident view (/incident/{id}, issue #12 part 3), end to end, with JavaScript on and off (the two
 * projects), in English and Dutch: a comment with an attachment is posted (its text required beside
 * the field), edited ("edited" shown) and deleted after a confirmation; a manager assigns the
 * technician, changes the priority, the tags (a 4th is refused beside the field) and the title; an
 * incident is marked as a duplicate (occurrences add up, the duplicate is Rejected); #commentSection
 * jumps to the comments; another entity's incident, one outside a technician's reach and malformed
 * ids are "Incident not found". The incidents are found through the view's own assignee pages.
 */

type Dict = Record<string, unknown>;
function locale(lng: string) {
  const read = (ns: string) => JSON.parse(fs.readFileSync(path.join("app/locales", lng, `${ns}.json`), "utf8")) as Dict;
  const namespaces: Record<string, Dict> = Object.fromEntries(["common", "incidents", "incidentView", "shell"].map((ns) => [ns, read(ns)]));
  return (key: string, values: Record<string, string | number> = {}) => {
    const [ns, rest] = key.includes(":") ? key.split(":") : ["incidentView", key];
    const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], namespaces[ns]);
    if (typeof found !== "string") throw new Error(`no text ${lng}:${key}`);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
  };
}
type T = ReturnType<typeof locale>;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const starts = (text: string) => new RegExp(`^${escape(text)}`);
/** A label made from a template with one value left open (`{{date}}`, `{{tag}}`): any value. */
const anyValue = (t: T, key: string, name: string) => {
  const [before, after] = t(key, { [name]: "\u0000" }).split("\u0000");
  return new RegExp(`^${escape(before)}.+${escape(after)}$`);
};

/** A small PNG (1×1 pixel). */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const MAX_ID = 80;

// The tests of a worker share its data: whoever a test signed in as is back in English afterwards.
test.afterEach(async ({ page }) => {
  await setLanguage(page, "en");
});

/** Incident ids the session reaches (the assign dialog's user pages answer 404 for the others). */
async function reachable(request: APIRequestContext, ids: number[]): Promise<number[]> {
  const found: number[] = [];
  for (const id of ids) {
    const res = await request.get(`/incident/${id}/assignee-options`);
    if (res.status() === 200) found.push(id);
  }
  return found;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The status of an incident as the page shows it (`data-status` of its badge), and its occurrences. */
async function incidentState(request: APIRequestContext, id: number) {
  const html = await (await request.get(`/incident/${id}`)).text();
  const status = Number(/data-status="(\d)"/.exec(html)?.[1]);
  const occurrences = Number(/data-testid="occurrences">(\d+)</.exec(html)?.[1]);
  const shortId = Number(/<h1[^>]*>#(\d+) /.exec(html)?.[1]);
  return { status, occurrences, shortId };
}

/** Opens a dialog of the view by its trigger and waits for it. */
async function openDialog(page: Page, trigger: string, title: string | RegExp) {
  await page.getByRole("link", { name: trigger, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await expect(dialog).toBeVisible();
  return dialog;
}

for (const lng of ["en", "nl-BE"] as const) {
test.describe(lng, () => {
  // English with JavaScript on and off, Dutch with it on: each form is checked without JavaScript once (the suite's time, issue #9).
  test.skip(({ javaScriptEnabled }) => lng !== "en" && !javaScriptEnabled, "Dutch runs with JavaScript on");
  const t: T = locale(lng);

  /** An incident the manager reaches, one per language (the tests of a worker share its data). */
  const commentIncident = (page: Page) =>
    reachable(
      page.request,
      range(1, MAX_ID)
        .filter((n) => n % 4 === (lng === "en" ? 1 : 3))
        .slice(0, 4),
    ).then(([id]) => id);

  test(`post a comment with an attachment; #commentSection jumps there (${lng})`, async ({ page, login }) => {
    await login(accounts.manager, { consent: true });
    await setLanguage(page, lng);
    const id = await commentIncident(page);
    expect(id, "an incident the manager reaches").toBeTruthy();

    await page.goto(`/incident/${id}#commentSection`);
    const section = page.locator("#commentSection");
    await expect(section).toBeInViewport();
    await expect(section.getByRole("heading", { level: 2, name: t("incidents:fields.comments") })).toBeVisible();

    // The text is required: beside the field (the attachment is chosen again after the error).
    const attach = () => section.getByLabel(t("comments.attachments"), { exact: true }).setInputFiles({ name: "leak.png", mimeType: "image/png", buffer: PNG });
    await attach();
    await section.getByRole("button", { name: t("comments.post") }).click();
    await expect(fieldError(page, t("incidents:validation.commentRequired"))).toBeVisible();

    const text = `Checked the valve ${Date.now().toString(36)}`;
    await section.getByLabel(new RegExp(`^${escape(t("comments.body"))}\\*?$`)).fill(text);
    await attach();
    await section.getByRole("button", { name: t("comments.post") }).click();
    await expect(successToast(page)).toContainText(t("incidents:success.commentPosted"));
    const comment = page.locator("article").filter({ hasText: text });
    await expect(comment).toBeVisible();
    await expect(comment.getByRole("img", { name: t("files.image", { name: "leak.png" }) })).toBeVisible();
    await expect(page.locator("#commentSection")).toBeInViewport();
  });

  test(`edit and delete one's comment; a failure is an error toast (${lng})`, async ({ page, login }) => {
    await login(accounts.manager, { consent: true });
    await setLanguage(page, lng);
    const id = await commentIncident(page);
    const text = `Ordered a new part ${Date.now().toString(36)}`;
    const posted = await page.request.post(`/incident/${id}`, { multipart: { intent: "comment", body: text }, maxRedirects: 0 });
    expect(posted.status()).toBe(302);
    await page.goto(`/incident/${id}#commentSection`);
    const comment = page.locator("article").filter({ hasText: text });

    // Edit: in place, "edited" afterwards.
    await comment.getByRole("link", { name: anyValue(t, "comments.editLabel", "date") }).click();
    const edited = `${text} and replaced it`;
    await page.getByLabel(new RegExp(`^${escape(t("comments.editField"))}\\*?$`)).fill(edited);
    await page.getByRole("button", { name: t("comments.save") }).click();
    await expect(successToast(page)).toContainText(t("incidents:success.commentUpdated"));
    const changed = page.locator("article").filter({ hasText: edited });
    await expect(changed).toContainText(t("comments.editedBy", { date: "", name: "" }).split(" ")[0]);

    // Delete, after the confirmation.
    await changed.getByRole("link", { name: anyValue(t, "comments.deleteLabel", "date") }).click();
    const dialog = page.getByRole("dialog", { name: t("comments.deleteTitle") });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: t("comments.delete") }).click();
    await expect(successToast(page)).toContainText(t("incidents:success.commentDeleted"));
    await expect(page.locator("article").filter({ hasText: edited })).toHaveCount(0);

    // A failure that is not the input (the comment is gone): the error toast of SPEC.md section 8.
    const gone = await page.request.post(`/incident/${id}`, { form: { intent: "deleteComment", commentId: "999999999" }, maxRedirects: 0 });
    expect(gone.status()).toBe(302);
    await page.goto(`/incident/${id}`);
    await expect(page.locator('[data-type="error"]').last()).toContainText(t("incidents:errors.commentDelete"));
  });

  test(`a manager assigns the technician and changes the priority (${lng})`, async ({ page, login, baseURL, javaScriptEnabled }) => {
    await login(accounts.manager, { consent: true });
    await setLanguage(page, lng);
    const technician = await webSession(baseURL!, accounts.technician);
    const [id] = await reachable(technician, range(lng === "en" ? 1 : 12, MAX_ID).slice(0, 12));
    await technician.dispose();
    expect(id, "an incident the technician reaches").toBeTruthy();
    const options = await (await page.request.get(`/incident/${id}/assignee-options`)).json();
    const tech = (options.items as { name: string; role: number }[]).find((u) => u.role === 2)!;
    const manager = (options.items as { name: string; role: number }[]).find((u) => u.role === 1)!;
    expect(tech, "the technician is offered").toBeTruthy();

    // Unassigned first, so that assigning the technician is a change whatever the demo said.
    const unassigned = await page.request.post(`/incident/${id}`, { form: { intent: "assign", assigneeId: "none" }, maxRedirects: 0 });
    expect(unassigned.status()).toBe(302);
    await page.goto(`/incident/${id}`);

    let dialog = await openDialog(page, t("actions.assign"), t("dialogs.assign.title"));
    // Searching narrows the users (a GET of the dialog without JavaScript, the JSON pages with it).
    await dialog.getByRole("searchbox", { name: t("dialogs.assign.search") }).fill(tech.name.split(" ")[1]);
    if (!javaScriptEnabled) await dialog.getByRole("button", { name: t("common:list.searchButton"), exact: true }).click();
    await expect(dialog.getByRole("radio", { name: starts(manager.name) })).toHaveCount(0);
    const option = t("dialogs.assign.option", {
      name: tech.name,
      role: t(`shell:roles.2`),
    });
    await expect(dialog.getByRole("radio", { name: option })).toBeVisible();
    await expect(dialog.getByRole("radio", { name: t("incidents:unassigned") })).toBeVisible();
    await dialog.getByRole("radio", { name: option }).check();
    await dialog.getByRole("button", { name: t("dialogs.assign.save"), exact: true }).click();
    await expect(successToast(page)).toContainText(t("incidents:success.assignee"));
    await expect(page).toHaveURL(new RegExp(`/incident/${id}$`));
    await expect(page.getByText(t("assignedTo", { name: tech.name }), { exact: true })).toBeVisible();
    await expect(page.getByText(t("incidents:events.1", { actor: "", to: tech.name }).trim())).not.toHaveCount(0);

    dialog = await openDialog(page, t("actions.priority"), t("dialogs.priority.title"));
    const target = (await incidentState(page.request, id)).status === 0 ? "3" : "2";
    await dialog.getByRole("combobox", { name: t("incidents:fields.priority") }).selectOption(target);
    await dialog.getByRole("button", { name: t("dialogs.priority.save") }).click();
    await expect(successToast(page)).toContainText(t("incidents:success.priority"));
    await expect(page.getByText(t("priorityBadge", { priority: t(`incidents:priority.${target}`) }))).toBeVisible();
  });

  test(`tags (a 4th is refused) and the title (${lng})`, async ({ page, login }) => {
    await login(accounts.manager, { consent: true });
    await setLanguage(page, lng);
    const [id] = await reachable(page.request, range(lng === "en" ? 20 : 30, MAX_ID).slice(0, 5));
    await page.goto(`/incident/${id}`);

    const dialog = await openDialog(page, t("actions.tags"), t("dialogs.tags.title"));
    const field = () => page.getByRole("dialog").getByRole("textbox", { name: t("dialogs.tags.new") });
    const add = async (tag: string) => {
      await field().fill(tag);
      await page
        .getByRole("dialog")
        .getByRole("button", { name: t("dialogs.tags.add"), exact: true })
        .click();
    };
    // Over 20 characters and empty: beside the field.
    await add("a-tag-of-twenty-one-c");
    await expect(fieldError(page, t("common:tags.tooLong"))).toBeVisible();
    await add(" ");
    await expect(fieldError(page, t("common:tags.empty"))).toBeVisible();
    // Fill up to 3, then the 4th.
    const suffix = Date.now().toString(36).slice(-4);
    for (let i = 0; ; i++) {
      const count = await page
        .getByRole("dialog")
        .getByRole("button", { name: anyValue(t, "common:tags.remove", "tag") })
        .count();
      if (count >= 3) break;
      await add(`t${i}-${suffix}`);
      // Added (the toast), or the incident already holds 3 tags (some demo incidents carry tags the
      // list shows in another form): either way the limit is what the next step checks.
      const tooMany = fieldError(page, t("common:tags.tooMany"));
      await expect(successToast(page).or(tooMany).first()).toBeVisible();
      if (await tooMany.isVisible()) break;
    }
    await add(`extra-${suffix}`);
    await expect(fieldError(page, t("common:tags.tooMany"))).toBeVisible();
    await expect(field()).toHaveValue(`extra-${suffix}`);
    // Remove one with its button.
    const first = page
      .getByRole("dialog")
      .getByRole("button", { name: anyValue(t, "common:tags.remove", "tag") })
      .first();
    const label = (await first.getAttribute("aria-label"))!;
    await first.click();
    await expect(successToast(page)).toContainText(t("incidents:success.tagRemoved"));
    await expect(page.getByRole("dialog").getByRole("button", { name: label, exact: true })).toHaveCount(0);
    await page
      .getByRole("dialog")
      .getByRole("link", { name: t("dialogs.tags.done") })
      .click();
    await expect(dialog).toHaveCount(0);

    // The title: required, then changed.
    const title = await openDialog(page, t("actions.title"), t("dialogs.title.title"));
    const input = title.getByRole("textbox", {
      name: new RegExp(`^${escape(t("incidents:fields.title"))}`),
    });
    await input.fill("");
    await title.getByRole("button", { name: t("common:actions.save") }).click();
    await expect(fieldError(page, t("incidents:validation.titleRequired"))).toBeVisible();
    const newTitle = `Radiator leaking ${suffix}`;
    await page
      .getByRole("dialog")
      .getByRole("textbox", {
        name: new RegExp(`^${escape(t("incidents:fields.title"))}`),
      })
      .fill(newTitle);
    await page
      .getByRole("dialog")
      .getByRole("button", { name: t("common:actions.save") })
      .click();
    await expect(successToast(page)).toContainText(t("incidents:success.title"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^#\\d+ ${escape(newTitle)}$`));
  });

  test(`mark a duplicate: occurrences add up, the duplicate is Rejected (${lng})`, async ({ page, login }) => {
    await login(accounts.manager, { consent: true });
    await setLanguage(page, lng);
    // Two open incidents (Pending or In Progress), from the end of the demo list.
    const open: { id: number; occurrences: number; shortId: number }[] = [];
    for (let id = lng === "en" ? 60 : 50; id > 0 && open.length < 2; id--) {
      const res = await page.request.get(`/incident/${id}/assignee-options`);
      if (res.status() !== 200) continue;
      const state = await incidentState(page.request, id);
      if (state.status === 0 || state.status === 1) open.push({ id, ...state });
    }
    expect(open, "two open incidents").toHaveLength(2);
    const [kept, duplicate] = open;

    await page.goto(`/incident/${duplicate.id}`);
    const dialog = await openDialog(page, t("actions.duplicate"), t("dialogs.duplicate.title", { shortId: duplicate.shortId }));
    await expect(dialog).toContainText(t("dialogs.duplicate.explain"));
    const field = () =>
      page.getByRole("dialog").getByRole("textbox", {
        name: new RegExp(`^${escape(t("dialogs.duplicate.label"))}`),
      });
    await field().fill(`#${duplicate.shortId}`);
    await page
      .getByRole("dialog")
      .getByRole("button", { name: t("dialogs.duplicate.save") })
      .click();
    await expect(fieldError(page, t("incidents:validation.duplicateSelf"))).toBeVisible();
    await field().fill(`#${kept.shortId}`);
    await page
      .getByRole("dialog")
      .getByRole("button", { name: t("dialogs.duplicate.save") })
      .click();
    await expect(successToast(page)).toContainText(t("incidents:success.duplicate"));
    await expect(page.locator('[data-status="3"]').first()).toHaveText(t("incidents:status.3"));
    await expect(page.getByText(t("incidents:events.4", { actor: "", shortId: kept.shortId }).trim())).toBeVisible();
    await page.getByRole("link", { name: `#${kept.shortId}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/incident/${kept.id}$`));
    await expect(page.getByTestId("occurrences")).toHaveText(String(kept.occurrences + duplicate.occurrences));
    await expect(
      page.getByText(
        t("incidents:events.4_kept", {
          actor: "",
          shortId: duplicate.shortId,
        }).trim(),
      ),
    ).toBeVisible();
    // The history tab: comments and events together.
    await page.getByRole("link", { name: t("incidents:fields.history"), exact: true }).click();
    await expect(page).toHaveURL(/activity=history/);
    await expect(page.getByRole("list", { name: t("incidents:fields.history") })).toBeVisible();
  });

  test(`another entity's incident, one outside reach and malformed ids are not found (${lng})`, async ({ page, login, baseURL, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "the same server markup and actions as with JavaScript: once (the suite's time, decision 016)");
    const manager = await webSession(baseURL!, accounts.manager);
    const technician = await webSession(baseURL!, accounts.technician);
    const managerIds = await reachable(manager, range(1, 12));
    const techIds = new Set(await reachable(technician, managerIds));
    await manager.dispose();
    await technician.dispose();
    const outside = managerIds.find((id) => !techIds.has(id));
    expect(outside, "an incident outside the technician's reach").toBeTruthy();

    const notFound = t("incidents:errors.notFound");
    await login(accounts.technician, { consent: true });
    await setLanguage(page, lng);
    let res = await page.goto(`/incident/${outside}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: notFound })).toBeVisible();
    for (const bad of ["abc", "2147483648", "0"]) {
      res = await page.goto(`/incident/${bad}`);
      expect(res?.status(), bad).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: notFound })).toBeVisible();
    }
    expect((await page.request.get(`/incident/${outside}/assignee-options`)).status()).toBe(404);

    // The technician is back in English before the session changes (afterEach resets only the last one).
    await setLanguage(page, "en");
    await page.context().clearCookies();
    await login(accounts.other, { consent: true });
    await setLanguage(page, lng);
    res = await page.goto(`/incident/${managerIds[0]}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: notFound })).toBeVisible();
  });

  test(`at phone width the view and its dialogs fit (${lng})`, async ({ page, login }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await login(accounts.technician, { consent: true });
    await setLanguage(page, lng);
    const [id] = await reachable(page.request, range(1, 12));
    await page.goto(`/incident/${id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^#\d+ /);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole("link", { name: t("incidents:fields.history"), exact: true }).click();
    await expect(page.getByRole("link", { name: t("incidents:fields.history"), exact: true })).toHaveAttribute("aria-current", "page");
    await openDialog(page, t("actions.status"), t("dialogs.status.title"));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page
      .getByRole("dialog")
      .getByRole("link", { name: t("common:actions.cancel") })
      .click();
    // Ends with the assign dialog open: the fixture checks that state with axe.
    await openDialog(page, t("actions.assign"), t("dialogs.assign.title"));
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });
});
}
