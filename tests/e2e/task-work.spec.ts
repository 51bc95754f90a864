import { accounts, expect, test } from "./fixtures";
import { apiLogin, setLanguage, successToast } from "./helpers";

/**
 * Time and material on a maintenance task, and the clock (issue 62), with JavaScript on in English and
 * off in French: the technician opens one of their tasks' day, starts the clock ("running since"), stops
 * it (an entry of a minute), adds a material line and sees the task's totals.
 */
const TEXT = {
  en: { start: "Start", stop: "Stop", running: "Running since", started: "Clock started", stopped: "Clock stopped", add: "Add material", added: "Material added", cost: "4.50", total: /9\.00/ },
  "fr-BE": { start: "Démarrer", stop: "Arrêter", running: "En cours depuis", started: "Chronomètre démarré", stopped: "Chronomètre arrêté", add: "Ajouter le matériel", added: "Matériel ajouté", cost: "4,50", total: /9,00/ },
} as const;

// The language is stored on the demo account, which other specs sign in as: put English back, pass or fail.
test.afterEach(async ({ page }) => {
  await setLanguage(page, "en");
});

test("a technician times a task with Start and Stop, adds material and sees the totals", async ({ page, login, request, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  const lng = javaScriptEnabled ? "en" : "fr-BE";
  const text = TEXT[lng];
  const { headers } = await apiLogin(request, accounts.technician);
  const today = new Date().toISOString().slice(0, 10);
  const later = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const tasks = (await (await request.get(`/api/tasks?from=${today}&to=${later}&mine=true&status=pending`, { headers })).json()) as { id: number; plannedMaintenanceId: number; dueDate: string }[];
  // One task per project: each run works on its own, so their totals do not mix.
  const task = tasks[javaScriptEnabled ? 0 : 1];
  expect(task, "the demo technician has pending tasks").toBeTruthy();

  await login(accounts.technician, { consent: true });
  await setLanguage(page, lng);
  const at = `/view-task/${task.plannedMaintenanceId}/${task.dueDate}?work=${task.id}`;
  await page.goto(at);
  const section = page.locator("#time-and-materials");
  await section.getByRole("button", { name: text.start, exact: true }).click();
  await expect(successToast(page)).toContainText(text.started);
  await expect(section.getByText(text.running)).toBeVisible();
  await section.getByRole("button", { name: text.stop, exact: true }).click();
  await expect(successToast(page)).toContainText(text.stopped);
  await expect(section.getByText("1 min").first()).toBeVisible();
  await expect(section.getByRole("button", { name: text.start, exact: true })).toBeVisible();

  const materialForm = section.locator("form").filter({ has: page.getByRole("button", { name: text.add }) });
  await materialForm.locator('input[name="description"]').fill("Filter");
  await materialForm.locator('input[name="quantity"]').fill("2");
  await materialForm.locator('input[name="unitCost"]').fill(text.cost);
  await materialForm.getByRole("button", { name: text.add }).click();
  await expect(successToast(page)).toContainText(text.added);
  await expect(section.getByText(text.total).first()).toBeVisible();

  // The same work through REST.
  const lines = (await (await request.get(`/api/tasks/${task.id}/material-lines`, { headers })).json()) as { description: string; total: string }[];
  expect(lines.map((l) => [l.description, l.total])).toContainEqual(["Filter", "9.00"]);
});
