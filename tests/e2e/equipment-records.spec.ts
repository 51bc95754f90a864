import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { accounts, expect, test, unique } from "./fixtures";
import { apiLogin, setLanguage, successToast } from "./helpers";

/**
 * Equipment item records and inspections (issue 63), with JavaScript on in English and off in Dutch: the
 * administrator fills a new equipment item's serial number and warranty end date on its screen and
 * attaches a document, and sees them on its record; then does one of the demo's fire safety checks by
 * its inspection checklist with one failed check, finds the incident it opened from the task and the task
 * from the incident, and prints the inspection report (the PDF read back with pdftotext names the failed
 * check and its incident). Each run has its own item and its own task.
 */
const TEXT = {
  en: {
    save: "Save",
    saved: "Item record saved",
    serial: "Serial number",
    warranty: "Warranty end date",
    addFiles: "Add files",
    warrantyShown: "Jun 30, 2027",
    seal: "Extinguisher seal intact",
    pressure: "Extinguisher pressure (bar)",
    lighting: "Emergency lighting works",
    remarks: "Remarks",
    pass: "Pass",
    fail: "Fail",
    failed: "Failed",
    markDone: "Mark done",
    done: "Task marked done",
    opened: "Opened incident #",
    signedOff: "Signed off by",
    openedBy: "Opened by a failed inspection check:",
    report: "Print the inspection report",
    reportTitle: "Inspection report",
  },
  "nl-BE": {
    save: "Opslaan",
    saved: "Fiche van de uitrusting opgeslagen",
    serial: "Serienummer",
    warranty: "Einde garantie",
    addFiles: "Bestanden toevoegen",
    warrantyShown: "30 jun 2027",
    seal: "Zegel van de blusser intact",
    pressure: "Druk van de blusser (bar)",
    lighting: "Noodverlichting werkt",
    remarks: "Opmerkingen",
    pass: "Geslaagd",
    fail: "Mislukt",
    failed: "Mislukt",
    markDone: "Markeren als uitgevoerd",
    done: "Taak gemarkeerd als uitgevoerd",
    opened: "Geopend incident #",
    signedOff: "Afgetekend door",
    openedBy: "Geopend door een mislukt inspectiepunt:",
    report: "Het inspectierapport afdrukken",
    reportTitle: "Inspectierapport",
  },
} as const;

/** A small PDF document (the upload checks read its first bytes). */
const PDF = Buffer.from("%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n");

const json = async <T>(res: Awaited<ReturnType<APIRequestContext["get"]>>): Promise<T> => {
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The text of a PDF, its white space collapsed (pdftotext, from poppler-utils). */
function pdfToText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inspection-"));
  try {
    fs.writeFileSync(path.join(dir, "report.pdf"), bytes);
    return execFileSync("pdftotext", [path.join(dir, "report.pdf"), "-"]).toString("utf8").replace(/\s+/g, " ");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The language is stored on the demo account, which other specs sign in as: put English back, pass or fail.
test.afterEach(async ({ page }) => {
  await setLanguage(page, "en");
});

test("an item's serial number, warranty and document; an inspection with a failed check, its incident both ways and the printed report", async ({ page, login, request, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  const lng = javaScriptEnabled ? "en" : "nl-BE";
  const text = TEXT[lng];
  const { headers } = await apiLogin(request, accounts.admin);

  // This run's own equipment item, in a new room.
  const [building] = await json<{ id: number }[]>(await request.get("/api/facilities/buildings?size=1", { headers }));
  const [roomType] = await json<{ id: number }[]>(await request.get("/api/facilities/rooms/roomtype?size=1", { headers }));
  const [equipmentType] = await json<{ id: number }[]>(await request.get("/api/equipments/type?size=1", { headers }));
  const reference = unique("REC-EQ");
  const created = await request.post("/api/facilities/rooms", {
    headers,
    data: { name: unique("Records room"), floor: "0", buildingId: building.id, roomTypeId: roomType.id, roomEquipments: [{ equipmentTypeId: equipmentType.id, internalReferences: [reference] }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id: roomId } = (await created.json()) as { id: number };
  const [item] = await json<{ id: number; internalReference: string }[]>(await request.get(`/api/equipments?roomIds=${roomId}`, { headers }));
  expect(item.internalReference).toBe(reference);

  // This run's own fire safety task (the demo's plan with an inspection checklist): one of its coming ones.
  const [plan] = await json<{ id: number }[]>(await request.get(`/api/maintenances/planned?q=${encodeURIComponent("Fire safety check")}`, { headers }));
  expect(plan, "the demo's fire safety plan").toBeTruthy();
  const pending = await json<{ id: number; plannedMaintenanceId: number; dueDate: string }[]>(await request.get(`/api/tasks?plan=${plan.id}&status=pending&from=${day(0)}&to=${day(120)}`, { headers }));
  const task = pending[javaScriptEnabled ? 0 : 1];
  expect(task, "the fire safety plan has coming tasks").toBeTruthy();

  await login(accounts.admin, { consent: true });
  await setLanguage(page, lng);

  // The item's record: serial number, warranty end date and a document.
  const serial = unique("SN");
  await page.goto(`/view-equipment/${item.id}`);
  const form = page.locator("form#item-record");
  await form.getByLabel(text.serial, { exact: true }).fill(serial);
  await form.getByLabel(text.warranty, { exact: true }).fill("2027-06-30");
  await form.getByLabel(text.addFiles, { exact: true }).setInputFiles({ name: "warranty.pdf", mimeType: "application/pdf", buffer: PDF });
  await form.getByRole("button", { name: text.save, exact: true }).click();
  await expect(successToast(page)).toContainText(text.saved);
  await expect(page.getByText(serial, { exact: true })).toBeVisible();
  await expect(page.getByText(text.warrantyShown, { exact: true })).toBeVisible();
  const attached = page.getByRole("link", { name: "warranty.pdf", exact: true }).first();
  await expect(attached).toBeVisible();
  const file = await page.request.get((await attached.getAttribute("href"))!);
  expect(file.status()).toBe(200);
  expect((await file.body()).subarray(0, 5).toString()).toBe("%PDF-");
  // The form shows the saved values again.
  await expect(form.getByLabel(text.serial, { exact: true })).toHaveValue(serial);
  await expect(form.getByLabel(text.warranty, { exact: true })).toHaveValue("2027-06-30");

  // The inspection: the seal fails, the rest is fine; marking done signs it off.
  const dayUrl = `/view-task/${task.plannedMaintenanceId}/${task.dueDate}`;
  await page.goto(dayUrl);
  const entry = page.getByTestId(`task-${task.id}`);
  await entry.getByRole("group", { name: text.seal, exact: true }).getByRole("radio", { name: text.fail, exact: true }).check();
  await entry.getByLabel(text.pressure, { exact: true }).fill("13");
  await entry.getByRole("group", { name: text.lighting, exact: true }).getByRole("radio", { name: text.pass, exact: true }).check();
  await entry.getByLabel(text.remarks, { exact: true }).fill("Seal missing on the extinguisher by the stairs.");
  await entry.getByRole("button", { name: text.markDone, exact: true }).click();
  await expect(successToast(page)).toContainText(text.done);
  await expect(entry.getByText(text.signedOff)).toBeVisible();
  await expect(entry.getByText(text.failed, { exact: true })).toHaveCount(1);

  // From the task to the incident its failed check opened, and back.
  const incidentLink = entry.getByRole("link", { name: new RegExp(`^${text.opened}\\d+$`) });
  await expect(incidentLink).toHaveCount(1);
  const shortId = (await incidentLink.textContent())!.replace(text.opened, "");
  await incidentLink.click();
  await expect(page).toHaveURL(/\/incident\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(text.seal);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(shortId);
  await expect(page.getByText(text.openedBy)).toBeVisible();
  await page.locator(`a[href="${dayUrl}"]`).filter({ hasText: text.seal }).click();
  await expect(page).toHaveURL(new RegExp(`${dayUrl}$`));
  await expect(page.getByTestId(`task-${task.id}`).getByRole("link", { name: `${text.opened}${shortId}`, exact: true })).toBeVisible();

  // The printed inspection report of this task names the failed check and its incident.
  const report = page.getByRole("link", { name: text.report, exact: true });
  await expect(report).toHaveAttribute("href", `${dayUrl}/inspection.pdf`);
  const pdf = await page.request.get(`${dayUrl}/inspection.pdf?task=${task.id}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toContain("application/pdf");
  const printed = pdfToText(await pdf.body());
  expect(printed).toContain(text.reportTitle);
  expect(printed).toContain(`${text.seal}: ${text.fail} · ${text.failed} · ${text.opened}${shortId}`);
  expect(printed).toContain(`${text.pressure}: 13`);
  expect(printed).toContain(text.signedOff);
});
