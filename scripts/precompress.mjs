// Precompresses the client build once (brotli at its best quality, gzip at level 9), so the server sends
// static files without compressing them per request (server/precompressed.ts, decision 019).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const root = "build/client";
const compressible = /\.(js|mjs|css|svg|json|txt|html|webmanifest|map|xml|ico)$/;
let files = 0;
let before = 0;
let after = 0;
for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !compressible.test(entry.name)) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  const data = fs.readFileSync(file);
  if (data.byteLength < 1024) continue;
  const br = zlib.brotliCompressSync(data, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
  files++;
  before += data.byteLength;
  after += br.byteLength;
}
console.log(`precompressed ${files} files: ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB (brotli)`);
