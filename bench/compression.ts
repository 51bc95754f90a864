/**
 * What compressing a page costs inside the server: `npm run bench:compression [-- path ...]` (also run by
 * `npm run bench`). Issue #9 asks that compression cost at most a tenth of a page (decision 019).
 *
 * The production build runs on a fresh copy of the demo data with SERVER_TIMING=1, signed in as the
 * manager. For each page, one client asks for it in batches of 20 requests, taking turns (every order) between
 * `Accept-Encoding: br`, `gzip` and none, so that whatever the machine does meanwhile falls on all three
 * alike. What comes out of it is the difference between the compressed and the uncompressed page in the
 * server's CPU (from /proc, all threads), against the CPU of the compressed page: the `compression`
 * middleware's work with what it does to the rest of the request (the collector, caches), and the
 * batches' noise. SERVER_TIMING adds the same small work to every request. Settings: BENCH_REQUESTS
 * (measured requests a page and encoding, default 1000), BENCH_WARMUP (300).
 */
import http from "node:http";
import { cpuMs } from "./lib/proc";
import { demoAccounts, startServer } from "./lib/server";
import { DYNAMIC_COMPRESSION } from "../server/compression";

const given = process.argv.slice(2);
const paths = given.length > 0 ? given : ["/login", "/facilities", "/facilities?tab=rooms", "/equipments"];
const requests = Number(process.env.BENCH_REQUESTS ?? 1000);
const warmup = Number(process.env.BENCH_WARMUP ?? 300);
const BATCH = 20;
const encodings = [
  { name: "br", header: "br" },
  { name: "gzip", header: "gzip" },
  { name: "none", header: "identity" },
] as const;
type EncodingName = (typeof encodings)[number]["name"];
const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

interface Answer {
  status: number;
  bytes: number;
}

const server = await startServer({ env: { SERVER_TIMING: "1" } });
try {
  const cookie = await server.signIn(demoAccounts.manager);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url: string, acceptEncoding: string) =>
    new Promise<Answer>((resolve, reject) => {
      const headers = { "accept-encoding": acceptEncoding, ...(url === "/login" ? {} : { cookie }) };
      http
        .get(`${server.base}${url}`, { agent, headers }, (res) => {
          let bytes = 0;
          res.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        })
        .on("error", reject);
    });

  console.log(
    `Compression inside the server (brotli quality ${DYNAMIC_COMPRESSION.brotliQuality}, gzip level ${DYNAMIC_COMPRESSION.gzipLevel}; ` +
      `${requests} requests a page and encoding after ${warmup} of warm-up, in batches of ${BATCH} taking turns; ` +
      `CPU ms a request, all threads):\n`,
  );
  console.log(
    "| page | bytes br / gzip / none | CPU br / gzip / none | difference br − none | difference gzip − none |\n|---|---|---|---|---|",
  );
  for (const url of paths) {
    for (const e of encodings) for (let i = 0; i < warmup; i++) await get(url, e.header);
    const sums = new Map<EncodingName, { cpu: number; bytes: number; errors: number }>(
      encodings.map((e) => [e.name, { cpu: 0, bytes: 0, errors: 0 }]),
    );
    const rounds = Math.ceil(requests / BATCH);
    for (let round = 0; round < rounds; round++) {
      // Every order in turn, so that no encoding always comes first or after the same one.
      const order = ORDERS[round % ORDERS.length].map((i) => encodings[i]);
      for (const e of order) {
        const sum = sums.get(e.name)!;
        const before = cpuMs(server.pid).all;
        for (let i = 0; i < BATCH; i++) {
          const answer = await get(url, e.header);
          if (answer.status >= 400) sum.errors++;
          sum.bytes = answer.bytes;
        }
        sum.cpu += cpuMs(server.pid).all - before;
      }
    }
    const n = rounds * BATCH;
    const [br, gzip, none] = encodings.map((e) => sums.get(e.name)!);
    const kb = (b: number) => (b / 1024).toFixed(1);
    const ms = (x: number) => (x / n).toFixed(2);
    const difference = (compressed: { cpu: number }) => {
      const extra = (compressed.cpu - none.cpu) / n;
      return `${extra.toFixed(2)} (${((extra / (compressed.cpu / n)) * 100).toFixed(0)} %)`;
    };
    const errors = br.errors + gzip.errors + none.errors;
    console.log(
      `| ${url} | ${kb(br.bytes)} / ${kb(gzip.bytes)} / ${kb(none.bytes)} KB | ${ms(br.cpu)} / ${ms(gzip.cpu)} / ${ms(none.cpu)} | ` +
        `${difference(br)} | ${difference(gzip)} |${errors ? ` ${errors} errors` : ""}`,
    );
  }
} finally {
  await server.stop();
}
