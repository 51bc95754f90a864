// `npm start`: builds the app when there is no build yet, then runs the production server.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

if (!fs.existsSync("build/server/index.js") || !fs.existsSync("build/server.js") || process.argv.includes("--build")) {
  console.log("Building Caretaker (first start only)...");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The demo start serves this machine only (its demo accounts have a published password) unless HOST says otherwise.
const host = process.env.HOST ?? "127.0.0.1";
if (!process.env.HOST) console.log("Listening on 127.0.0.1 only: set HOST=0.0.0.0 to serve other machines.");
const child = spawn(process.execPath, ["build/server.js"], {
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env, HOST: host },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
