// `npm start`: builds the app when there is no build yet, then runs the production server.
import { spawn } from "node:child_process";
import fs from "node:fs";

/** The build's phases, recognised in its output, as told to the person waiting. */
const PHASES = [
  [/building for production/, "the pages for the browser"],
  [/building SSR bundle/, "the server"],
  [/precompressed/, "compressed copies of the static files"],
];

/**
 * Runs `npm run build`, printing one line per phase instead of its output (the list of files it wrote);
 * the whole output is printed when the build fails.
 */
function build() {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "build"], { stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    let phase = 0;
    const read = (chunk) => {
      output.push(chunk);
      const text = chunk.toString();
      while (phase < PHASES.length && PHASES[phase][0].test(text)) {
        console.log(`  ${PHASES[phase][1]}…`);
        phase += 1;
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("error", (error) => {
      console.error(`The build could not start: ${error.message}`);
      resolve(1);
    });
    child.on("exit", (code) => {
      if (code !== 0) process.stderr.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

if (!fs.existsSync("build/server/index.js") || !fs.existsSync("build/server.js") || process.argv.includes("--build")) {
  const why = process.argv.includes("--build") ? "as asked" : "first start only";
  console.log(`Building Caretaker (${why}; usually 1 to 3 minutes):`);
  const status = await build();
  if (status !== 0) process.exit(status);
  console.log("Built.");
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
