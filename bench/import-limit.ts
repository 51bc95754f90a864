/**
 * What reading an over-long workbook costs before the line limit refuses it (issue 60, item 12): a
 * workbook of BENCH_ROWS (default 1,000,000) one-cell rows, written with exceljs's streaming writer
 * (inline strings, and again with shared strings, as Excel saves), read by the imports' reader
 * (`readSheet`), each in a fresh process. For each it prints the time the read took, the process's peak
 * resident memory above its idle figure (sampled every 10 ms) and the longest the event loop waited
 * meanwhile (what every other request of the server waits).
 *
 *   npm run bench:import-limit
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import ExcelJS from "exceljs";
import { readSheet } from "~/modules/imports/parse.server";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const MB = 1024 * 1024;

async function writeWorkbook(file: string, useSharedStrings: boolean): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings, useStyles: false });
  const sheet = book.addWorksheet("Data");
  sheet.addRow(["Name"]).commit();
  for (let i = 1; i <= ROWS; i++) sheet.addRow([`Room ${i}`]).commit();
  sheet.commit();
  await book.commit();
}

async function measure(label: string, bytes: Uint8Array) {
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  let outcome: string;
  try {
    const sheet = await readSheet(bytes);
    outcome = `read: ${sheet.lines.length} lines kept`;
  } catch (error) {
    outcome = `refused: ${(error as Error).message}`;
  }
  const ms = performance.now() - started;
  loop.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `${label.padEnd(34)} ${(bytes.byteLength / MB).toFixed(1)} MB file  ${(ms / 1000).toFixed(2)} s  peak +${Math.round((peak - idle) / MB)} MB  longest event-loop wait ${Math.round(loop.max / 1e6)} ms  (${outcome})`,
  );
}

async function main() {
  const [file, label] = process.argv.slice(2);
  if (file) return measure(label ?? file, new Uint8Array(fs.readFileSync(file)));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-limit-"));
  try {
    for (const shared of [false, true]) {
      const file = path.join(dir, `rows-${shared ? "shared" : "inline"}.xlsx`);
      await writeWorkbook(file, shared);
      const label = `${ROWS} rows, ${shared ? "shared strings" : "inline strings"}`;
      execFileSync(process.execPath, ["--import", "tsx", process.argv[1], file, label], { stdio: "inherit" });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
