import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { claimedPngBytes, jpegWithExif, pngBytes } from "#tests/factories";
import { expectFieldError } from "#tests/service-helpers";
import { MAX_IMAGE_EDGE, prepareImage, prepareImages } from "./images.server";

/** The colour of one pixel of an encoded image. */
async function pixel(bytes: Uint8Array, x: number, y: number): Promise<number[]> {
  const { data } = await sharp(bytes).extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}

describe("prepareImage", () => {
  it("turns a phone's photo upright, scales it within 2048 px and removes its EXIF and GPS metadata", async () => {
    const photo = await jpegWithExif(3200, 2400, 6);
    const before = await sharp(photo).metadata();
    expect(before).toMatchObject({ width: 3200, height: 2400, orientation: 6 });
    expect(before.exif?.toString("latin1")).toContain("PhoneMaker");

    const scaled = await prepareImage({ bytes: photo, name: "IMG_0001.JPG" }, "photos");
    expect(scaled.name).toBe("IMG_0001.JPG");
    const after = await sharp(scaled.bytes).metadata();
    expect(after).toMatchObject({ format: "jpeg", width: 1536, height: MAX_IMAGE_EDGE });
    expect(after.orientation).toBeUndefined();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(Buffer.from(scaled.bytes).includes("PhoneMaker")).toBe(false);
    expect(scaled.bytes.byteLength).toBeLessThan(photo.byteLength);
    // The stored top-left (red) is now the top-right: turned 90° clockwise, as the camera meant.
    const [r, g, b] = await pixel(scaled.bytes, 1536 - 10, 10);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(80);
  });

  it("keeps the format and does not enlarge a small image", async () => {
    const small = await prepareImage({ bytes: pngBytes(40, 30), name: "icon.png" }, "files");
    expect(await sharp(small.bytes).metadata()).toMatchObject({ format: "png", width: 40, height: 30 });
    const wide = await prepareImage({ bytes: new Uint8Array(await sharp({ create: { width: 4096, height: 820, channels: 4, background: "#00000000" } }).webp().toBuffer()), name: "w.webp" }, "files");
    expect(await sharp(wide.bytes).metadata()).toMatchObject({ format: "webp", width: MAX_IMAGE_EDGE, height: 410, hasAlpha: true });
  });

  it("refuses a decompression bomb and an undecodable image with a field error", async () => {
    await expectFieldError(prepareImage({ bytes: claimedPngBytes(20_000, 20_000), name: "bomb.png" }, "photos"), "photos", "errors.file.tooManyPixels");
    const broken = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await expectFieldError(prepareImage({ bytes: broken, name: "broken.jpg" }, "files"), "files", "errors.file.unreadableImage");
  });

  it("passes files that are not images, empty or too large through unchanged", async () => {
    const pdf = { bytes: new TextEncoder().encode("%PDF-1.4\n%%EOF\n"), name: "manual.pdf" };
    const empty = { bytes: new Uint8Array(), name: "x.png" };
    const large = { bytes: pngBytes(64, 64), name: "large.png" };
    const [a, b, c] = await prepareImages([pdf, empty, large], "files", { maxBytes: 10 });
    expect(a).toBe(pdf);
    expect(b).toBe(empty);
    expect(c).toBe(large);
    expect(await prepareImages(undefined, "files")).toEqual([]);
  });
});
