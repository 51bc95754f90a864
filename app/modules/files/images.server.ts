import sharp from "sharp";
import { ValidationError } from "~/lib/errors";
import { sniff } from "./sniff";
import type { Upload } from "./uploads.server";

/**
 * Images are scaled down on the server before they are stored (decision 026): a phone's
 * 12-megapixel photo becomes at most MAX_IMAGE_EDGE pixels on its longer side, turned upright by its
 * EXIF orientation, and re-encoded in its own format (JPEG stays JPEG, WebP stays WebP, PNG stays
 * PNG, GIF stays GIF, animation kept), without any metadata: no EXIF, no GPS position, no camera
 * serial. A decompression bomb (more than MAX_INPUT_PIXELS pixels, read from the header before
 * anything is decoded) is refused with a field error, as is an image that cannot be decoded.
 *
 * Call it before the verb's transaction: decoding takes tens of milliseconds on the thread pool, and
 * no row lock or connection should wait for it. Files that are not images pass through unchanged.
 */
export const MAX_IMAGE_EDGE = 2048;
export const MAX_INPUT_PIXELS = 120_000_000;

// Each upload is read once: libvips' operation cache would only hold memory.
sharp.cache(false);

const JPEG_QUALITY = 82;
const WEBP_QUALITY = 82;

/** The field error of an image that is refused here. */
function refuse(field: string, key: string, code: string): never {
  throw new ValidationError({ [field]: [key] }, key, code);
}

/**
 * The upload scaled down and cleaned when it is a PNG, JPEG, GIF or WebP image (by its content);
 * anything else (a PDF, an empty or oversized file) unchanged, for the storage's own checks.
 */
export async function prepareImage(upload: Upload, field: string, options: { maxBytes?: number } = {}): Promise<Upload> {
  const { bytes } = upload;
  if (bytes.byteLength === 0 || (options.maxBytes !== undefined && bytes.byteLength > options.maxBytes)) return upload;
  const sniffed = sniff(bytes, upload.name);
  if (!sniffed?.isImage) return upload;
  const animated = sniffed.mime === "image/gif" || sniffed.mime === "image/webp";
  let pipeline: sharp.Sharp;
  try {
    pipeline = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated, failOn: "error" })
      .autoOrient()
      .resize({ width: MAX_IMAGE_EDGE, height: MAX_IMAGE_EDGE, fit: "inside", withoutEnlargement: true });
    switch (sniffed.mime) {
      case "image/jpeg":
        // Plain libjpeg: mozjpeg saves ~10 % of the bytes but takes twice the time (bench:report).
        pipeline = pipeline.jpeg({ quality: JPEG_QUALITY });
        break;
      case "image/webp":
        pipeline = pipeline.webp({ quality: WEBP_QUALITY });
        break;
      case "image/gif":
        pipeline = pipeline.gif();
        break;
      default:
        pipeline = pipeline.png({ compressionLevel: 9 });
    }
    // sharp writes no metadata unless asked (keepExif/withMetadata): EXIF, GPS and XMP are gone.
    const output = await pipeline.toBuffer();
    return { name: upload.name, bytes: new Uint8Array(output.buffer, output.byteOffset, output.byteLength) };
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) refuse(field, "errors.file.tooManyPixels", "IMAGE_TOO_MANY_PIXELS");
    refuse(field, "errors.file.unreadableImage", "IMAGE_UNREADABLE");
  }
}

/** Every upload of a field through `prepareImage`, in parallel (libuv's thread pool); order kept. */
export async function prepareImages(uploads: Upload[] | undefined, field: string, options: { maxBytes?: number } = {}): Promise<Upload[]> {
  return Promise.all((uploads ?? []).map((upload) => prepareImage(upload, field, options)));
}
