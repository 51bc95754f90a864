import type { Page } from "@playwright/test";
import { screens } from "../../app/route-access";
import { accounts, DEMO_PASSWORD, expect, loginThroughForm, test } from "./fixtures";
import { apiLogin, webSession } from "./helpers";

/**
 * The login form, the landing pages, logout, the session's silent refresh and the authentication API.
 * These tests sign in through the form itself; the other specs use the `login` fixture (one post).
 */

/** Manager screens for administrators only (decision 057): a facility manager is sent to the forbidden page. */
const ADMINISTRATORS_ONLY = new Set([
  "administration-webhooks",
  "administration-webhook",
  "administration-audit",
  "administration-service-levels",
  "administration-service-level-type",
  "administration-rates",
]);

const concrete = (path: string) => `/${path.replace(/:date/g, "2026-01-05").replace(/:\w+/g, "1")}`;

/** Decodes the signed session cookie (signed, not encrypted) to read the refresh token, as a thief would. */
async function sessionCookie(page: Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === "__session");
  expect(cookie).toBeTruthy();
  const raw = decodeURIComponent(cookie!.value);
  const payload = raw.slice(0, raw.lastIndexOf("."));
  return { value: cookie!.value, data: JSON.parse(decodeURIComponent(escape(atob(payload)))) as Record<string, unknown> };
}

test.describe("navigation guards (SPEC.md sections 2 and 6)", () => {
  test("every route of the table, as a visitor and as each role", async ({ baseURL, request }, testInfo) => {
    test.skip(testInfo.project.name === "js-off", "server-side redirects: one run is enough");
    test.setTimeout(180_000);
    // A task day is a page when the plan has tasks that day: one of the demo technician's (which every role reaches).
    const tech = await apiLogin(request, accounts.technician);
    const [task] = (await (await request.get("/api/tasks?mine=true", { headers: tech.headers })).json()) as { plannedMaintenanceId: number; dueDate: string }[];
    expect(task, "the demo technician has a task in the coming month").toBeTruthy();
    const pathOf = (screen: { id: string; path: string }) =>
      screen.id === "view-task" ? `/view-task/${task.plannedMaintenanceId}/${task.dueDate}` : concrete(screen.path);
    const roles = [
      { name: "visitor", email: null, role: null },
      { name: "technician", email: accounts.technician, role: 2 },
      { name: "manager", email: accounts.manager, role: 1 },
      { name: "administrator", email: accounts.admin, role: 3 },
    ];
    for (const who of roles) {
      const api = await webSession(baseURL!, who.email);
      for (const screen of screens) {
        const path = pathOf(screen);
        const res = await api.get(path, { maxRedirects: 0 });
        const location = res.headers()["location"] ?? "";
        const where = `${who.name} → ${path}`;
        const signedIn = who.role !== null;
        const manager = who.role === 1 || who.role === 3;
        if (screen.access === "visitor") {
          if (signedIn) expect([res.status(), location], where).toEqual([302, "/"]);
          else expect(res.status(), where).toBeLessThan(300);
        } else if (screen.access === "public") {
          expect(res.status(), where).not.toBe(302);
        } else if (!signedIn) {
          expect([res.status(), location], where).toEqual([302, "/login"]);
        } else if (screen.access === "manager" && !manager) {
          expect([res.status(), location], where).toEqual([302, "/forbidden"]);
        } else if (ADMINISTRATORS_ONLY.has(screen.id) && who.role !== 3) {
          // Webhooks and the audit history are the administrators' (decision 057).
          expect([res.status(), location], where).toEqual([302, "/forbidden"]);
        } else if (screen.id === "administration-webhook") {
          // The demo data registers no webhook: endpoint 1 is not found, unless another spec on this server
          // registered one (access.spec opens a real one).
          expect([200, 404], where).toContain(res.status());
        } else if (screen.id === "notification") {
          // Notification 1 is one user's own (access.spec opens the owner's): the owner's first visit marks it
          // read and comes back once (302 to itself), everyone else's is not found.
          expect([200, 302, 404], where).toContain(res.status());
          if (res.status() === 302) expect(location, where).toBe(path);
        } else if (screen.id === "home") {
          expect([res.status(), location], where).toEqual([302, who.role === 2 ? "/incidents" : "/dashboard"]);
        } else {
          expect(res.status(), where).toBe(200);
        }
      }
      await api.dispose();
    }
  });

  test("a secured page opened while signed out is reached right after login", async ({ page }) => {
    await page.goto("/update-facility/1?from=guard");
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Email").fill(accounts.manager);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/update-facility\/1\?from=guard$/);
  });

  test("after login a technician lands on incidents and others on the dashboard; login page sends them home", async ({ page }) => {
    await loginThroughForm(page, accounts.technician);
    await expect(page).toHaveURL(/\/incidents$/);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/incidents$/);
    await page.goto("/users");
    await expect(page).toHaveURL(/\/forbidden$/);
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  });

  test("an administrator lands on the dashboard; logout ends the session", async ({ page }) => {
    await loginThroughForm(page, accounts.admin);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.locator("[data-user-menu] > summary").click();
    await page.getByRole("button", { name: /Logout/ }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("login messages", () => {
  test("bad credentials and a disabled account show the exact messages; input is kept", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Please enter your email")).toBeVisible();
    await expect(page.getByText("Please enter your password")).toBeVisible();

    await page.getByLabel("Email").fill(accounts.admin);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Invalid username or password" })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(accounts.admin);

    await page.getByLabel("Email").fill("disabled@demo.test");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(
      page.getByText("Your account has been deactivated. Contact a facility manager at your entity to reactivate it."),
    ).toBeVisible();
  });
});

test.describe("session", () => {
  test("a token near expiry is refreshed silently, once, even under concurrent requests", async ({ page, login, server, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "the same server markup and actions as with JavaScript: once (the suite's time, decision 016)");
    await login(accounts.manager);
    const before = await sessionCookie(page);
    // Not yet in the refresh window: the same cookie goes on.
    expect((await page.request.get("/settings", { maxRedirects: 0 })).headers()["set-cookie"] ?? "").not.toContain("__session=");
    // The e2e server issues 330 s tokens: 31 s on, the token is inside the 5-minute refresh window.
    // The server's clock is moved instead of waiting (tests/e2e/server.ts, app/lib/clock.server.ts).
    await server.setClockOffset(31_000);
    try {
      const results = await Promise.all(Array.from({ length: 5 }, () => page.request.get("/settings", { maxRedirects: 0 })));
      for (const res of results) expect(res.status()).toBe(200);
      // One refresh: every request got the same new session cookie.
      const issued = results.map((res) => /__session=([^;]*)/.exec(res.headers()["set-cookie"] ?? "")?.[1]);
      expect(issued[0]).toBeTruthy();
      expect(new Set(issued).size).toBe(1);
      await page.goto("/facilities");
      await expect(page).toHaveURL(/\/facilities$/);
      const after = await sessionCookie(page);
      expect(after.data.refreshToken).not.toBe(before.data.refreshToken);
      expect(Number(after.data.expiresAt)).toBeGreaterThan(Number(before.data.expiresAt));
      await page.goto("/users");
      await expect(page).toHaveURL(/\/users$/);
    } finally {
      await server.setClockOffset(0);
    }
  });

  test("a revoked refresh token ends in 'User session expired' on the login page", async ({ page, request, login, server }) => {
    await login(accounts.manager);
    const { data } = await sessionCookie(page);
    // Somebody replays the refresh token after the minute a rotated token may still be presented (a
    // request of the same browser overtaken by another): the family is revoked.
    const first = await request.post("/api/authentication/refresh-token", { data: { refreshToken: data.refreshToken } });
    expect(first.status()).toBe(200);
    try {
      await server.setClockOffset(61_000);
      const reuse = await request.post("/api/authentication/refresh-token", { data: { refreshToken: data.refreshToken } });
      expect(reuse.status()).toBe(401);
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/login$/);
      const message = page.getByText("User session expired");
      await expect(message).toBeVisible();
      await expect(page.getByRole("alert").filter({ hasText: "User session expired" })).toHaveClass(/destructive/);
    } finally {
      await server.setClockOffset(0);
    }
  });
});

test.describe("authentication API", () => {
  test("login, refresh with rotation and reuse detection, logout", async ({ request }) => {
    const bad = await request.post("/api/authentication/login", { data: { username: accounts.admin, password: "x" } });
    expect(bad.status()).toBe(401);
    expect(await bad.json()).toMatchObject({ errorCode: 1, message: "Invalid username or password", jwtToken: null });
    const disabled = await request.post("/api/authentication/login", { data: { username: "disabled@demo.test", password: DEMO_PASSWORD } });
    expect(disabled.status()).toBe(403);
    expect((await disabled.json()).message).toBe(
      "Your account has been deactivated. Contact a facility manager at your entity to reactivate it.",
    );
    const invalid = await request.post("/api/authentication/login", { data: { username: "" } });
    expect(invalid.status()).toBe(400);
    expect((await invalid.json()).fieldErrors).toMatchObject({ username: ["Please enter your email"], password: ["Please enter your password"] });

    const ok = await request.post("/api/authentication/login", { data: { username: accounts.technician, password: DEMO_PASSWORD } });
    expect(ok.status()).toBe(200);
    const session = await ok.json();
    expect(session).toMatchObject({ role: 2, errorCode: 0 });
    expect(typeof session.jwtToken).toBe("string");
    expect(typeof session.userId).toBe("number");
    expect(typeof session.entityId).toBe("number");

    const rotated = await request.post("/api/authentication/refresh-token", { data: { jwtToken: session.jwtToken, refreshToken: session.refreshToken } });
    expect(rotated.status()).toBe(200);
    const next = await rotated.json();
    expect(next.refreshToken).not.toBe(session.refreshToken);

    const auth = { Authorization: `Bearer ${next.jwtToken}` };
    const logout = await request.get("/api/authentication/logout", { headers: auth });
    expect(await logout.json()).toEqual({ responseCode: 0 });
    const after = await request.get("/api/entities/1", { headers: auth });
    expect(after.status()).toBe(401);
    expect((await after.json()).code).toBe("UNAUTHORIZED");
  });

  test("every other /api call answers 401 JSON without a valid token", async ({ request }) => {
    for (const path of ["/api/entities/1", "/api/users", "/api/facilities", "/api/anything/at/all"]) {
      for (const headers of [{} as Record<string, string>, { Authorization: "Bearer not-a-token" }]) {
        const res = await request.get(path, { headers });
        expect(res.status(), path).toBe(401);
        expect(res.headers()["content-type"]).toContain("application/json");
        expect(await res.json()).toMatchObject({ code: "UNAUTHORIZED", message: "User session expired" });
      }
    }
  });
});
