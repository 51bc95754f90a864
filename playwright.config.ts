import fs from "node:fs";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests against the built app in Debian's Chromium. `tests/e2e/global-setup.ts` makes the
 * demo data once; every worker then runs its own production server on a copy of it (the `server`
 * fixture in tests/e2e/fixtures.ts), so tests run in parallel without sharing data. Every test runs
 * twice: with JavaScript on and with JavaScript off. E2E_WORKERS sets the number of workers
 * (default 2, one per core of the CI machine; docs/decisions/016-test-suite.md).
 */
// Debian's `chromium-headless-shell` when installed (.ci/run installs it): the old headless browser, without
// the full browser's UI machinery, uses about 30 % less CPU than `chromium --headless` for the same tests
// (decision 016). Otherwise Debian's `chromium`.
const chromium =
  process.env.CHROMIUM_PATH ??
  (fs.existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  // A form post answered by a server sharing two cores with the browsers and the other worker can take
  // more than the default 5 s when the machine is loaded; a real failure still fails, only later.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // The app's service worker (issue 64) precaches the whole client build in every new browser profile: only
    // the offline walk (offline.spec.ts) lets it register.
    serviceWorkers: "block",
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  projects: [
    { name: "js-on", use: { javaScriptEnabled: true } },
    { name: "js-off", use: { javaScriptEnabled: false } },
  ],
});
