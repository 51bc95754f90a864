/**
 * Printing benchmark (issue 48, decision 053): what drawing the sticker sheets costs on the server. It
 * draws, with the production renderer (`renderQrSheets`, pdfkit and qrcode, codes as vector paths):
 *   - 50 sheets: 1,050 QR stickers of realistic report addresses with four label lines each, in the
 *     entity's colours, without and with the logo in the centre (level H): the CPU time of the process
 *     while drawing (target at most 3 s), the PDF's size (at most 5 MB) and the process's peak resident
 *     memory above its idle level (at most 100 MB; peak from `process.resourceUsage().maxRSS`, idle
 *     measured after one small warm-up sheet);
 *   - one sheet of 21 stickers: median and worst wall time of BENCH_REPEAT (20) runs (at most 200 ms).
 * It reads no database: the selection's SQL is one statement (queries.server.ts) and is left out.
 *
 *   npm run bench:printing
 */
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { renderQrSheets, type QrSticker } from "~/modules/printing/pdf.server";
import { REPORT_CODE_ALPHABET } from "~/db/report-identifier";

const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const ORIGIN = "https://caretaker.example.org";
const colors = { background: "#1e3a8a", text: "#ffffff" };

function code(i: number): string {
  let n = i * 2654435761 + 97;
  let out = "";
  for (let k = 0; k < 13; k++) {
    out += REPORT_CODE_ALPHABET[n % 32];
    n = Math.floor(n / 32) + k * 7919;
  }
  return out;
}

const stickers = (count: number): QrSticker[] =>
  Array.from({ length: count }, (_, i) => {
    const c = code(i + 1);
    return { url: `${ORIGIN}/report/${c}`, lines: [`Room ${i + 1} - Meeting room east`, "Main building", `Floor ${i % 9}`, c] };
  });

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
const start = { row: 1, column: 1 };

async function main() {
  const logo = await sharp({ create: { width: 256, height: 256, channels: 3, background: "#e11d48" } }).png().toBuffer();
  // Warm-up: the fonts, the code generator and the JIT, then the idle level.
  await renderQrSheets(stickers(21), { start, colors, logo });
  global.gc?.();
  const idleRss = process.memoryUsage().rss;

  const rows: string[] = [];
  for (const withLogo of [false, true]) {
    const input = stickers(1050);
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const pdf = await renderQrSheets(input, { start, colors, logo: withLogo ? logo : null });
    const wall = performance.now() - t0;
    const cpuUsed = cpuMs(cpu);
    const peakAbove = process.resourceUsage().maxRSS * 1024 - idleRss;
    rows.push(
      `| 50 sheets, 1,050 stickers${withLogo ? ", logo (level H)" : ""} | ${cpuUsed.toFixed(0)} ms CPU (${wall.toFixed(0)} ms wall) | ${mb(pdf.byteLength)} MB | ${mb(Math.max(0, peakAbove))} MB |`,
    );
  }

  const times: number[] = [];
  const one = stickers(21);
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    await renderQrSheets(one, { start, colors, logo });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log("| drawing | time | PDF | peak memory above idle |");
  console.log("|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log(`| one sheet, 21 stickers with logo (median / worst of ${REPEAT}) | ${times[Math.floor(times.length / 2)].toFixed(1)} / ${times[times.length - 1].toFixed(1)} ms | | |`);
  console.log(`idle RSS ${mb(idleRss)} MB`);
}

await main();
