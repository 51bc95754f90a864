// `npm start`: builds the app when there is no build yet, then runs the production server.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

if (!fs.existsSync("build/server/index.js") || !fs.existsSync("build/server.js") || process.argv.includes("--build")) {
  console.log("Building Caretaker (first start only)...");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, ["build/server.js"], {
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
