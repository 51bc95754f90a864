// `npm test`: lint, typecheck, unit and database tests (PGlite, then PostgreSQL when DATABASE_URL is
// set, with the production build beside them), then the end-to-end suite in Chromium with JavaScript on and off.
// Ends with one line "N passed, N failed" over everything that ran.
import { spawn } from "node:child_process";
import fs from "node:fs";

const steps = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
fs.mkdirSync("test-results", { recursive: true });

/** Runs a step in the foreground (its output straight through); the event loop stays free for steps aside. */
function run(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      steps.push({ name, ok: code === 0, seconds });
      resolve(code === 0);
    });
  });
}

/** Starts a step in the background (mostly one core), its output kept apart and printed when it ends. */
function runAside(name, cmd, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { env: process.env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n=== ${name} (${seconds} s, side by side) ===`);
      process.stdout.write(output);
      steps.push({ name, ok: code === 0, seconds });
      resolve(code === 0);
    });
  });
}

/**
 * The failed and flaky tests with the first lines of their errors, printed again below the summary: a CI
 * log is often read from its end only, and the reason for a failure is otherwise far above it.
 */
const failures = [];
const firstLines = (text) =>
  String(text ?? "")
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "" && !/^\s*at .*node_modules/.test(line))
    .slice(0, 6)
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== "failed") continue;
      failures.push({ label: `FAIL  ${suite.name.replace(`${process.cwd()}/`, "")} › ${test.fullName}`, lines: firstLines(test.failureMessages?.[0]) });
    }
    if ((suite.assertionResults ?? []).length === 0 && suite.status === "failed") {
      failures.push({ label: `FAIL  ${suite.name.replace(`${process.cwd()}/`, "")}`, lines: firstLines(suite.message) });
    }
  }
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  const stats = report.stats ?? {};
  totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  totals.failed += stats.unexpected ?? 0;
  totals.skipped += stats.skipped ?? 0;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected" && test.status !== "flaky") continue;
        const label = `${test.status === "flaky" ? "FLAKY" : "FAIL "} [${test.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}`;
        const error = (test.results ?? []).find((result) => result.error)?.error;
        failures.push({ label, lines: firstLines(error?.message ?? error?.value) });
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
}

const npx = "npx";
const withoutDb = { DATABASE_URL: "" };
// Lint and typecheck each keep one core busy, side by side; the typecheck takes longer, so the unit tests
// start on the core the lint leaves free instead of waiting for it.
const typecheck = runAside("typecheck", npx, ["tsc", "--noEmit"]);
let ok = await runAside("lint", npx, ["eslint", "."]);

fs.rmSync("test-results/vitest-pglite.json", { force: true });
ok =
  (await run("unit + database tests (PGlite)", npx, ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest-pglite.json"], withoutDb)) && ok;
countVitest("test-results/vitest-pglite.json");
ok = (await typecheck) && ok;

const e2e = !process.argv.includes("--no-e2e");
// The database tests on PostgreSQL leave a fifth of the two cores idle (they wait on the server), and so
// does the build (its bundler is mostly one thread): side by side they take about the time of the longer.
const build = e2e ? (process.env.DATABASE_URL ? runAside("build", "npm", ["run", "build"]) : run("build", "npm", ["run", "build"])) : null;

if (process.env.DATABASE_URL) {
  fs.rmSync("test-results/vitest-postgres.json", { force: true });
  ok =
    (await run("database tests (PostgreSQL)", npx, ["vitest", "run", "--project", "db", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest-postgres.json"])) && ok;
  countVitest("test-results/vitest-postgres.json");
}

if (e2e) {
  if (await build) {
    fs.rmSync("test-results/e2e.json", { force: true });
    // One retry: a browser test that passes the second time is reported as flaky, not hidden (e2e.json).
    // The suite runs on the embedded database; the test of several processes gets the PostgreSQL server.
    const e2eEnv = { ...withoutDb, E2E_POSTGRES_URL: process.env.DATABASE_URL ?? "" };
    ok = (await run("end-to-end (Chromium, JavaScript on and off)", npx, ["playwright", "test", "--retries=1"], e2eEnv)) && ok;
    countPlaywright("test-results/e2e.json");
  } else {
    ok = false;
  }
}

console.log("\n=== summary ===");
for (const step of steps) console.log(`${step.ok ? "ok  " : "FAIL"}  ${step.name} (${step.seconds} s)`);
for (const failure of failures) {
  console.log(`\n${failure.label}`);
  for (const line of failure.lines) console.log(`    ${line}`);
}
if (!ok && totals.failed === 0) totals.failed = 1; // a failed lint, typecheck or build counts as a failure
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok ? 0 : 1);
