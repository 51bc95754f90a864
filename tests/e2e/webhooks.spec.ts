import { createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { accounts, expect, test, unique } from "./fixtures";
import { apiLogin, field, successToast } from "./helpers";

/**
 * Webhooks end to end, with JavaScript on and off (the two projects), in English: an administrator opens
 * the administration hub, registers a webhook to a receiver this test starts on loopback (the e2e server
 * runs with WEBHOOKS_ALLOW_PRIVATE=1, tests/e2e/server.ts), sees its secret once, changes an incident's
 * status, and the receiver gets a delivery it verifies with that secret; the endpoint's page lists the
 * delivery with the receiver's answer. Then the webhook is deleted through its confirmation.
 */
type Dict = Record<string, unknown>;
const read = (ns: string) => JSON.parse(fs.readFileSync(path.join("app/locales/en", `${ns}.json`), "utf8")) as Dict;
const texts: Record<string, Dict> = { common: read("common"), webhooks: read("webhooks"), administration: read("administration") };
function t(key: string, values: Record<string, string | number> = {}) {
  const [ns, rest] = key.includes(":") ? key.split(":") : ["common", key];
  const found = rest.split(".").reduce<unknown>((node, part) => (node as Dict | undefined)?.[part], texts[ns]);
  if (typeof found !== "string") throw new Error(`no text en:${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
}

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

test("a webhook registered to a receiver on loopback gets a signed delivery when an incident changes, listed with its answer", async ({ page, login, baseURL, playwright }) => {
  test.setTimeout(120_000);
  const received: Received[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("received by the test");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const api = await playwright.request.newContext({ baseURL });
  try {
    const name = unique("Ticketing");
    await login(accounts.admin, { consent: true });

    // The hub links to the webhooks.
    await page.goto("/administration");
    await expect(page.getByRole("heading", { level: 1, name: t("screens.administration") })).toBeVisible();
    await page.getByTestId("hub-card-webhooks").click();
    await expect(page).toHaveURL(/\/administration\/webhooks$/);

    // Refused without an event, the input kept; then registered, its secret shown once.
    await field(page, t("webhooks:form.name")).fill(name);
    await field(page, t("webhooks:form.url")).fill(receiverUrl);
    await page.getByRole("button", { name: t("webhooks:add.submit"), exact: true }).click();
    await expect(page.getByText(t("webhooks:validation.eventsRequired"))).toBeVisible();
    await expect(field(page, t("webhooks:form.name"))).toHaveValue(name);
    await page.getByLabel(t("webhooks:events.incident_status-changed")).check();
    await page.getByRole("button", { name: t("webhooks:add.submit"), exact: true }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("link", { name: t("webhooks:list.open", { name }) }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText(t("webhooks:detail.noDeliveries"))).toBeVisible();
    const endpointPath = new URL(page.url()).pathname;

    // An incident changes (through the REST API, as the administrator).
    const session = await apiLogin(api, accounts.admin);
    const incidents = (await (await api.get("/api/incidents", { headers: session.headers })).json()) as { id: number; status: number }[];
    const incident = incidents.find((i) => i.status === 0 || i.status === 1);
    expect(incident, "a pending or in-progress demo incident").toBeTruthy();
    const changed = await api.put(`/api/incidents/${incident!.id}/status`, { headers: session.headers, data: { status: incident!.status === 0 ? 1 : 0 } });
    expect(changed.status()).toBe(200);

    // The receiver gets it, signed with the secret.
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const [delivery] = received;
    const signature = String(delivery.headers["caretaker-signature"]);
    const [, timestamp, digest] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature) ?? [];
    expect(digest).toBe(createHmac("sha256", secret).update(`${timestamp}.${delivery.body}`).digest("hex"));
    expect(delivery.headers["caretaker-event"]).toBe("incident.status-changed");
    const body = JSON.parse(delivery.body) as { id: string; type: string; data: { incidentId: number } };
    expect(body).toMatchObject({ type: "incident.status-changed", data: { incidentId: incident!.id } });

    // The endpoint's page lists the delivery with the answer.
    await expect
      .poll(
        async () => {
          await page.goto(endpointPath);
          return page.getByTestId("webhook-delivery").count();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    const row = page.getByTestId("webhook-delivery").first();
    await expect(row).toContainText(t("webhooks:deliveryStatus.succeeded"));
    await expect(row).toContainText("HTTP 200");
    await expect(row).toContainText(body.id);
    await expect(row).toContainText("received by the test");

    // Deleted through its confirmation.
    await page.getByRole("link", { name: t("webhooks:delete.open"), exact: true }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.getByRole("dialog").getByRole("button", { name: t("webhooks:delete.confirm"), exact: true }).click();
    await expect(page).toHaveURL(/\/administration\/webhooks$/);
    await expect(successToast(page)).toContainText(t("webhooks:toast.deleted"));
    await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
  } finally {
    await api.dispose();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

test("a facility manager opens the administration hub without the administrators' cards and may not open the webhooks", async ({ page, login }) => {
  await login(accounts.manager, { consent: true });
  await page.goto("/administration");
  await expect(page.getByTestId("hub-card-users")).toBeVisible();
  await expect(page.getByTestId("hub-card-webhooks")).toHaveCount(0);
  await expect(page.getByTestId("hub-card-audit")).toHaveCount(0);
  await page.goto("/administration/webhooks");
  await expect(page).toHaveURL(/\/forbidden$/);
  await page.goto("/administration/audit");
  await expect(page).toHaveURL(/\/forbidden$/);
});

test("the configuration hub links to every setting with its count, and keeps the incident types tab", async ({ page, login }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(accounts.manager, { consent: true });
  await page.goto("/configuration");
  for (const key of ["entity-settings", "incident-types", "maintenance-types", "room-types", "printing"]) await expect(page.getByTestId(`hub-card-${key}`)).toBeVisible();
  await expect(page.getByTestId("hub-card-incident-types")).toContainText(/\d+ incident types?/);
  await page.getByTestId("hub-card-incident-types").click();
  await expect(page).toHaveURL(/\/configuration\?tab=incident-types$/);
  // No horizontal scrolling at phone width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("the audit history lists the entity's changes newest first and filters them", async ({ page, login }) => {
  await login(accounts.admin, { consent: true });
  await page.goto("/administration");
  await page.getByTestId("hub-card-audit").click();
  await expect(page).toHaveURL(/\/administration\/audit$/);
  await expect(page.getByRole("heading", { level: 1, name: t("screens.administration-audit") })).toBeVisible();
  await page.getByLabel(t("administration:audit.filters.from")).fill("2000-01-01");
  await page.getByRole("button", { name: t("list.filter"), exact: true }).click();
  await expect(page).toHaveURL(/from=2000-01-01/);
});
