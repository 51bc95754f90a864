import sharp from "sharp";
import { pngBytes } from "./files";

/**
 * Real camera-like images for the image pipeline's tests (app/modules/files/images.server.ts), made
 * with sharp at run time: no binary fixtures.
 */

/**
 * A JPEG as a phone writes it: stored `width` x `height` (landscape pixels), with the EXIF orientation
 * tag (6: "turn 90° clockwise to view"), a camera make and model, and a GPS position. The top-left
 * quarter is red, so a test can tell where the top of the picture went.
 */
export async function jpegWithExif(width: number, height: number, orientation = 6): Promise<Uint8Array> {
  const red = await sharp({ create: { width: Math.ceil(width / 2), height: Math.ceil(height / 2), channels: 3, background: "#ff0000" } }).png().toBuffer();
  const buffer = await sharp({ create: { width, height, channels: 3, background: "#2050a0" } })
    .composite([{ input: red, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation })
    .withExif({
      IFD0: { Make: "PhoneMaker", Model: "Phone 15", Copyright: "Occupier" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "50/1 50/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "4/1 21/1 0/1" },
    })
    .toBuffer();
  return new Uint8Array(buffer);
}

/**
 * A PNG whose header claims `width` x `height` pixels (a decompression bomb: a few hundred bytes that
 * would take gigabytes decoded); its pixel data is a 1 x 1 image's, so it is never really decodable.
 */
export function claimedPngBytes(width: number, height: number): Uint8Array {
  const png = Buffer.from(pngBytes(1, 1));
  // IHDR: length (4), type (4), width (4), height (4), ... then its CRC over type and data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return new Uint8Array(png);
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
