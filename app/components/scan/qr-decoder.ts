/**
 * Reads the QR code in a video's current frame: with the browser's own `BarcodeDetector` where it reads QR
 * codes, otherwise with jsQR (plain JavaScript, no WebAssembly, which the content security policy does not
 * allow), imported here so that only the scan screen's camera downloads it.
 */
export type DecodeFrame = (video: HTMLVideoElement) => Promise<string | null>;

interface DetectedBarcode {
  rawValue: string;
}

interface BarcodeDetectorType {
  new (options: { formats: string[] }): { detect(source: HTMLVideoElement): Promise<DetectedBarcode[]> };
  getSupportedFormats(): Promise<string[]>;
}

/** The frame is scaled down to this many pixels on its longer side before jsQR reads it. */
const MAX_SIDE = 800;

async function nativeDecoder(): Promise<DecodeFrame | null> {
  const Detector = (window as unknown as { BarcodeDetector?: BarcodeDetectorType }).BarcodeDetector;
  if (!Detector) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes("qr_code")) return null;
    const detector = new Detector({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video)).find((code) => code.rawValue)?.rawValue ?? null;
  } catch {
    return null;
  }
}

async function libraryDecoder(): Promise<DecodeFrame> {
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) throw new Error("no 2d canvas");
  return async (video) => {
    const { videoWidth: width, videoHeight: height } = video;
    if (!width || !height) return null;
    const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" })?.data || null;
  };
}

/** A frame reader, the browser's when it has one for QR codes; throws when neither can be had (the library not downloaded). */
export async function qrDecoder(): Promise<DecodeFrame> {
  return (await nativeDecoder()) ?? (await libraryDecoder());
}
