import { accounts, expect, horizontalOverflow, test } from "./fixtures";
import { apiLogin, successToast } from "./helpers";

/**
 * Maintenance tasks (decision 051), with JavaScript on and off: the technician's task list, marking a
 * task done with a note on its day's page and undoing it, the month calendar linking to the day, on a
 * phone too; and the calendar feed's address in the settings, served as iCalendar, reset with a
 * confirmation (the old address then answers 404).
 */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test("the technician marks a task done on its day's page and undoes it; the list and the calendar lead there", async ({ page, login, request, javaScriptEnabled }) => {
  const tech = await apiLogin(request, accounts.technician);
  const res = await request.get(`/api/tasks?mine=true&status=pending&from=${day(0)}&to=${day(300)}`, { headers: tech.headers });
  expect(res.status()).toBe(200);
  const pending = (await res.json()) as { id: number; plannedMaintenanceId: number; plannedMaintenanceName: string; dueDate: string }[];
  // One task per project, so that the two runs of this test on one worker's data do not meet.
  const task = pending[javaScriptEnabled ? 0 : 1];
  expect(task, "the demo technician has pending tasks").toBeTruthy();

  await login(accounts.technician, { consent: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/task");
  await expect(page.getByRole("heading", { name: "Tasks", level: 1 })).toBeVisible();
  await expect(page.locator(`a[href="/view-task/${task.plannedMaintenanceId}/${task.dueDate}"]`).first()).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);

  await page.goto(`/view-task/${task.plannedMaintenanceId}/${task.dueDate}`);
  await expect(page.getByRole("heading", { name: task.plannedMaintenanceName, level: 1 })).toBeVisible();
  const card = page.getByTestId(`task-${task.id}`);
  await card.getByLabel("Note (optional)").fill("Filters swapped");
  await card.getByRole("button", { name: "Mark done" }).click();
  await expect(successToast(page)).toContainText("Task marked done");
  await expect(card.getByText(/^Done by /)).toBeVisible();
  await expect(card.getByText("Filters swapped")).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);

  // Without JavaScript the toast stays over the phone's bottom edge: open the page again (it is gone).
  await page.reload();
  await card.getByRole("button", { name: /^Undo/ }).click();
  await expect(successToast(page)).toContainText("Task reopened");
  await expect(card.getByRole("button", { name: "Mark done" })).toBeVisible();

  // The calendar of that month, as a list of days on the phone, links to the day.
  await page.goto(`/task?view=month&month=${task.dueDate.slice(0, 7)}&assignee=me`);
  const days = page.getByTestId("task-calendar-days");
  await expect(days.locator(`a[href="/view-task/${task.plannedMaintenanceId}/${task.dueDate}"]`).first()).toBeVisible();
  expect(await horizontalOverflow(page)).toBe(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId("task-calendar-grid").locator(`a[href="/view-task/${task.plannedMaintenanceId}/${task.dueDate}"]`).first()).toBeVisible();
  await page.getByRole("link", { name: "Next month" }).click();
  await expect(page).toHaveURL(/month=\d{4}-\d{2}/);
});

test("the list of one day, which the calendar's busy days link to: marking a task done there comes back to that day", async ({ page, login, request, javaScriptEnabled }) => {
  const tech = await apiLogin(request, accounts.technician);
  const res = await request.get(`/api/tasks?mine=true&status=pending&from=${day(0)}&to=${day(300)}`, { headers: tech.headers });
  const pending = (await res.json()) as { id: number; plannedMaintenanceId: number; dueDate: string }[];
  // Not the tasks of the test above (0 and 1), one per project.
  const task = pending[javaScriptEnabled ? 2 : 3];
  expect(task, "the demo technician has pending tasks").toBeTruthy();

  await login(accounts.technician, { consent: true });
  await page.goto(`/task?day=${task.dueDate}&status=all&assignee=me`);
  await expect(page.getByRole("heading", { name: /^Tasks of /, level: 2 })).toBeVisible();
  const item = page.getByRole("listitem").filter({ has: page.locator(`a[href="/view-task/${task.plannedMaintenanceId}/${task.dueDate}"]`) }).first();
  await item.getByRole("button", { name: /^Mark done/ }).click();
  await expect(successToast(page)).toContainText("Task marked done");
  await expect(page).toHaveURL(new RegExp(`day=${task.dueDate}`));
  await expect(page.getByRole("heading", { name: /^Tasks of /, level: 2 })).toBeVisible();
  await item.getByRole("button", { name: /^Undo/ }).click();
  await expect(successToast(page)).toContainText("Task reopened");
  await expect(item.getByRole("button", { name: /^Mark done/ })).toBeVisible();
  // The next day's list, and back; "Show every day" leaves the day, keeping the other filters.
  const next = new Date(Date.parse(`${task.dueDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await page.getByRole("link", { name: "Next day" }).click();
  await expect(page).toHaveURL(new RegExp(`day=${next}`));
  await page.getByRole("link", { name: "Previous day" }).click();
  await expect(page).toHaveURL(new RegExp(`day=${task.dueDate}`));
  await page.getByRole("link", { name: "Show every day" }).click();
  await expect(page).toHaveURL(/\/task\?status=all&assignee=me$/);
});

test("the calendar feed: made in the settings, served as iCalendar, reset after a confirmation", async ({ page, login, request }) => {
  await login(accounts.manager, { consent: true });
  await page.goto("/settings");
  const create = page.getByRole("button", { name: "Create my calendar address" });
  if (await create.isVisible()) {
    await create.click();
    await expect(successToast(page)).toContainText("Calendar address created");
  }
  const address = page.getByLabel("Your calendar address");
  const url = await address.inputValue();
  expect(url).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  const feed = await request.get(new URL(url).pathname);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toContain("text/calendar");
  const text = await feed.text();
  expect(text.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
  expect(text.trimEnd().endsWith("END:VCALENDAR")).toBe(true);

  await page.getByRole("link", { name: "Reset address" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Reset" }).click();
  await expect(successToast(page)).toContainText("Calendar address reset");
  const fresh = await page.getByLabel("Your calendar address").inputValue();
  expect(fresh).not.toBe(url);
  expect((await request.get(new URL(url).pathname)).status()).toBe(404);
  expect((await request.get(new URL(fresh).pathname)).status()).toBe(200);
});
