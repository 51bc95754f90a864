/**
 * Content sniffing: the type of an upload is decided by its bytes, never by the name or the
 * browser's declared type. Only formats the product accepts are recognised.
 */
export type FileKind = "image" | "logo" | "document";

export interface Sniffed {
  mime: string;
  extension: string;
  isImage: boolean;
}

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  signature.every((b, i) => bytes[offset + i] === b);

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

const OFFICE: Record<string, string> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
};

export function sniff(bytes: Uint8Array, originalName = ""): Sniffed | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image("image/png", "png");
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return image("image/jpeg", "jpg");
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return image("image/gif", "gif");
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return image("image/webp", "webp");
  if (ascii(bytes, 0, 5) === "%PDF-") return { mime: "application/pdf", extension: "pdf", isImage: false };
  const ext = originalName.toLowerCase().split(".").pop() ?? "";
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    return OFFICE[ext] ? { mime: OFFICE[ext], extension: ext, isImage: false } : null;
  }
  if ((ext === "txt" || ext === "csv") && isText(bytes)) {
    return { mime: ext === "csv" ? "text/csv" : "text/plain", extension: ext, isImage: false };
  }
  return null;
}

function image(mime: string, extension: string): Sniffed {
  return { mime, extension, isImage: true };
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Which sniffed types each kind of upload accepts. */
export const ACCEPTED: Record<FileKind, string[]> = {
  image: ["image/png", "image/jpeg", "image/gif", "image/webp"],
  logo: ["image/png", "image/jpeg", "image/webp"],
  document: [
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "application/pdf",
    "text/plain",
    "text/csv",
    ...Object.values(OFFICE),
  ],
};

/** Width and height of a PNG, JPEG, GIF or WebP image, read from its header; null when unknown. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47]) && bytes.length >= 24) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (ascii(bytes, 0, 3) === "GIF" && bytes.length >= 10) {
    return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  if (startsWith(bytes, [0xff, 0xd8])) {
    let offset = 2;
    while (offset + 9 < bytes.length) {
      if (bytes[offset] !== 0xff) return null;
      const marker = bytes[offset + 1];
      const length = view.getUint16(offset + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
      }
      offset += 2 + length;
    }
    return null;
  }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP" && bytes.length >= 30) {
    const chunk = ascii(bytes, 12, 16);
    if (chunk === "VP8 ") return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    if (chunk === "VP8L") {
      const b = view.getUint32(21, true);
      return { width: (b & 0x3fff) + 1, height: ((b >> 14) & 0x3fff) + 1 };
    }
    if (chunk === "VP8X") {
      const w = bytes[24] | (bytes[25] << 8) | (bytes[26] << 16);
      const h = bytes[27] | (bytes[28] << 8) | (bytes[29] << 16);
      return { width: w + 1, height: h + 1 };
    }
  }
  return null;
}
