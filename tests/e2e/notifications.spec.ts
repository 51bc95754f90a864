import type { APIRequestContext, Page } from "@playwright/test";
import { Role, UserLanguage } from "../../app/db/enums";
import { accounts, expect, newPerson, readOutbox, test } from "./fixtures";
import { apiLogin } from "./helpers";

/**
 * Notifications (issue #14), with JavaScript on and off: an administrator assigns the technician an
 * incident (REST); the notify job writes it; the technician's bell counts it after the next navigation
 * (no JavaScript needed), the list shows it first, opening it marks it read and links on to the incident,
 * "Mark all as read" empties the unread filter; the email is in the outbox.
 */
const bell = (page: Page) => page.getByRole("banner").getByRole("link", { name: /unread|none unread/ });

async function unreadCount(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute("aria-label")) ?? "";
  return Number(label.match(/^(\d+)/)?.[1] ?? 0);
}

/**
 * A technician of the test's own, invited by the administrator (REST) and reaching every facility, who has
 * had no notification yet: the assignment's mail then comes at once, not in the digest a minute later that
 * more than three notifications within a minute would bring (decision 028; the digest itself is tested in
 * app/modules/notifications/service.server.test.ts).
 */
function newTechnician(request: APIRequestContext, admin: { headers: Record<string, string> }) {
  return newPerson(request, admin.headers, { role: Role.TECHNICIAN, language: UserLanguage.EN, name: "Nel", surname: "Notified", prefix: "notified", receiveNotification: true });
}

/** The look of the way back on another screen (`from`'s back link), to compare with; the page comes back after. */
async function backLinkClass(page: Page, from: string): Promise<string | null> {
  const here = page.url();
  await page.goto(from);
  const incident = await page.locator("tbody a[href^='/incident/']").first().getAttribute("href");
  await page.goto(incident!);
  const cls = await page.getByRole("link", { name: "Back to incidents", exact: true }).getAttribute("class");
  await page.goto(here);
  return cls;
}

test("an assignment reaches the technician: bell after navigation, list, opening marks read, mark all, email", async ({ page, login, request, javaScriptEnabled }) => {
  const admin = await apiLogin(request, accounts.admin);
  const tech = await newTechnician(request, admin);
  // Two open incidents (the new technician reaches every facility): one to open, one for "Mark all as read".
  // Not the demo technician's: other tests of the worker count on theirs.
  const demoTechnician = await apiLogin(request, accounts.technician);
  const list = await request.get("/api/incidents?status=0&status=1&size=50", { headers: tech.headers });
  const open = (await list.json()) as { id: number; shortId: number; title: string; assignee: { id: number } | null }[];
  const [incident, other] = open.filter((i) => i.assignee?.id !== demoTechnician.userId);
  expect(other, "two open incidents").toBeTruthy();

  await login(tech.email, { consent: true, password: tech.password });
  await page.goto("/notifications");
  await expect(page.getByText("No notifications")).toBeVisible();
  expect(await unreadCount(page)).toBe(0);
  const mailsBefore = readOutbox().length;

  // The other incident first: the list shows the newest notification first.
  for (const { id } of [other, incident]) {
    const assign = await request.put(`/api/incidents/${id}/assignee`, { headers: admin.headers, data: { assigneeId: tech.userId } });
    expect(assign.status()).toBe(200);
  }
  const title = `Incident #${incident.shortId} assigned to you: ${incident.title}`;

  // The notify job runs within seconds; each navigation reads the count and the list afresh (both: the
  // second notification may be written between the list's query and the bell's).
  await expect
    .poll(async () => {
      await page.goto("/notifications");
      return [await unreadCount(page), await page.getByTestId("notification-list").getByRole("listitem").count()];
    }, { timeout: 20_000 })
    .toEqual([2, 2]);
  const row = page.getByTestId("notification-list").getByRole("listitem").first();
  await expect(row.getByRole("link", { name: title })).toBeVisible();

  await row.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/notification\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // The title names the notification; the way back looks like every other way back, a 24 px target at least.
  await expect(page).toHaveTitle(`${title} · Notification · Caretaker`);
  const back = page.getByRole("link", { name: "Back to notifications" });
  expect((await back.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  expect(await back.getAttribute("class")).toBe(await backLinkClass(page, "/incidents"));
  // (With JavaScript the live toast of the same notification may offer "Open incident" too.)
  await expect(page.getByRole("main").getByRole("link", { name: "Open incident" })).toHaveAttribute("href", `/incident/${incident.id}`);
  // Without JavaScript the page itself shows the new count; with it, the live stream updates the bell.
  if (javaScriptEnabled) await page.reload();
  expect(await unreadCount(page)).toBe(1);

  await page.goto("/notifications?filter=unread");
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByText("All notifications marked as read")).toBeVisible();
  await expect(page.getByText("No unread notifications")).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName("Notifications, none unread");

  // The technician receives notifications: the opened one's mail, with the incident's link.
  const mailed = () => readOutbox().slice(mailsBefore).find((m) => m.to === tech.email && m.subject === title);
  await expect.poll(() => Boolean(mailed()), { timeout: 20_000 }).toBe(true);
  expect(mailed()!.text).toContain(`/incident/${incident.id}`);
});
