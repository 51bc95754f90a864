import { deflateSync } from "node:zlib";

export type Rgb = readonly [number, number, number];
export type PngPattern = "gradient" | "stripes" | "checks" | "rings";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, sum]);
}

/**
 * A real PNG (8-bit RGB, no alpha) of `width` × `height` pixels painted with a simple pattern between
 * two colours: a diagonal gradient, diagonal stripes, checks or rings around the centre (a puddle).
 * A 320 × 240 image takes a few milliseconds and a few kilobytes, so the demo seed makes its photos
 * at run time instead of shipping binary files.
 */
export function patternPng(
  width: number,
  height: number,
  options: { from: Rgb; to: Rgb; pattern?: PngPattern; cell?: number },
): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width * height > 4_000_000) {
    throw new RangeError(`bad image size ${width}x${height}`);
  }
  const { from, to, pattern = "gradient" } = options;
  const cell = Math.max(2, options.cell ?? Math.round(Math.min(width, height) / 8));
  const cx = width / 2;
  const cy = height / 2;
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      // t in [0, 1]: how far towards `to` this pixel is; a soft gradient keeps every pattern photo-like.
      const base = (x + y) / (width + height);
      let t: number;
      switch (pattern) {
        case "stripes":
          t = 0.25 * base + (Math.floor((x + y) / cell) % 2 === 0 ? 0 : 0.75);
          break;
        case "checks":
          t = 0.25 * base + ((Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0 ? 0 : 0.75);
          break;
        case "rings": {
          const d = Math.hypot(x - cx, (y - cy) * 1.4) / cell;
          t = 0.3 * base + 0.7 * (0.5 + 0.5 * Math.cos(d * Math.PI));
          break;
        }
        default:
          t = base;
      }
      const offset = y * stride + 1 + x * 3;
      for (let c = 0; c < 3; c++) raw[offset + c] = Math.round(from[c] + (to[c] - from[c]) * t);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour (RGB)
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(raw)),
      chunk("IEND", Buffer.alloc(0)),
    ]),
  );
}
