/**
 * Keyset cursors (decision 017): the sort key of the last row of a page, `[text, id]`, as an opaque
 * URL-safe string. A list that pages by cursor asks for the rows after it, so a deep page costs what
 * the first one does. Anything that does not decode to the expected shape is no cursor (null): a form
 * falls back to the first page, a JSON resource answers 400.
 */
export type TextIdCursor = [string, number];

export function encodeCursor(key: TextIdCursor): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

export function decodeCursor(value: string | null | undefined): TextIdCursor | null {
  if (!value || value.length > 400 || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === "string" &&
      parsed[0].length <= 200 &&
      !parsed[0].includes("\u0000") &&
      Number.isSafeInteger(parsed[1]) &&
      parsed[1] > 0 &&
      parsed[1] <= 2_147_483_647
    ) {
      return [parsed[0], parsed[1]];
    }
  } catch {
    /* not a cursor */
  }
  return null;
}
