import fs from "node:fs";
import path from "node:path";
import { startServer, tempDir } from "./server";

/**
 * Makes the demo data once for the run: starts the built app on an empty data folder (it migrates and
 * seeds), then stops it. Each worker then serves a copy of that folder (fixtures.ts, `server`). Also
 * makes the folder where the workers note which screen states axe has checked. Returns the teardown.
 */
export default async function globalSetup() {
  const root = tempDir("caretaker-e2e-");
  process.env.E2E_AXE_DIR = path.join(root, "axe-checked");
  fs.mkdirSync(process.env.E2E_AXE_DIR);
  const cleanUp = async () => {
    const file = path.join(process.env.E2E_AXE_DIR!, "checks.tsv");
    const checks = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
    const seconds = checks.reduce((sum, line) => sum + Number(line.split("\t")[0]), 0) / 1000;
    console.log(`axe checked ${checks.length} screen states in ${seconds.toFixed(0)} s`);
    // Which states were checked, and how long each took (the suite's time, docs/benchmarks.md).
    fs.mkdirSync("test-results", { recursive: true });
    fs.writeFileSync("test-results/axe-checks.tsv", checks.sort().join("\n") + "\n");
    fs.rmSync(root, { recursive: true, force: true });
  };
  if (process.env.E2E_BASE_URL) return cleanUp; // an already running server was given

  const template = path.join(root, "template");
  const started = Date.now();
  const server = await startServer({ dataDir: template });
  await server.stop();
  // Mails the seed may have written are not the tests' business.
  fs.rmSync(path.join(template, "outbox"), { recursive: true, force: true });
  process.env.E2E_TEMPLATE_DIR = template;
  console.log(`demo data made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return cleanUp;
}
