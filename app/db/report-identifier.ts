/**
 * Codes behind QR stickers (`report_identifiers.code`): the whole public URL path segment of a room or
 * an equipment item's report page, so they must be unguessable.
 *
 * 13 characters of a 32-letter alphabet (digits and capitals without 0/O, 1/I): 65 bits from the
 * platform's cryptographic random source, URL-safe, case-insensitive to read aloud, short enough for
 * a sticker, and matching the schema's CHECK (`^[A-Za-z0-9_-]{4,32}$`).
 *
 * Client-safe (Web Crypto, no Node imports). The scale seed builds the same format in SQL.
 */

/** 32 symbols, so one random byte masked with 31 picks one without bias. */
export const REPORT_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const REPORT_CODE_LENGTH = 13;
/** Bits of entropy of a code (13 × 5 = 65). */
export const REPORT_CODE_BITS = REPORT_CODE_LENGTH * Math.log2(REPORT_CODE_ALPHABET.length);

const CODE_PATTERN = new RegExp(`^[${REPORT_CODE_ALPHABET}]{${REPORT_CODE_LENGTH}}$`);

/** A new random report code, e.g. `K7QW2MZP9XH4C`. */
export function newReportCode(): string {
  const bytes = new Uint8Array(REPORT_CODE_LENGTH);
  globalThis.crypto.getRandomValues(bytes);
  let code = "";
  for (const byte of bytes) code += REPORT_CODE_ALPHABET[byte & 31];
  return code;
}

/** Whether `value` has the shape of a code made by `newReportCode` (use before a lookup). */
export function isReportCode(value: string): boolean {
  return CODE_PATTERN.test(value);
}
