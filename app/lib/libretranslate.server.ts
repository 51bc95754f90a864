/**
 * A client of a LibreTranslate-compatible server: `POST {base}/translate` with
 * `{ q, source, target, format: "text", api_key? }`, answering `{ translatedText }`. Used by the
 * incident types' "translate to the others" when `TRANSLATE_URL` is set. Every failure (network,
 * status, body, time-out) throws, so the caller can keep what the user typed.
 */
export interface LibreTranslateOptions {
  url: string;
  apiKey?: string;
  /** Milliseconds before a request is given up. */
  timeoutMs?: number;
}

const LANGUAGE_CODES: Record<string, string> = { en: "en", fr: "fr", nl: "nl", "fr-BE": "fr", "nl-BE": "nl" };

export function libreTranslate(options: LibreTranslateOptions) {
  const endpoint = `${options.url.replace(/\/+$/, "")}/translate`;
  return {
    async translate(text: string, from: string, to: string): Promise<string> {
      const source = LANGUAGE_CODES[from] ?? from;
      const target = LANGUAGE_CODES[to] ?? to;
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ q: text, source, target, format: "text", ...(options.apiKey ? { api_key: options.apiKey } : {}) }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
      });
      if (!response.ok) throw new Error(`translation service answered ${response.status}`);
      const body = (await response.json()) as { translatedText?: unknown };
      if (typeof body.translatedText !== "string" || !body.translatedText.trim()) throw new Error("translation service answered no text");
      return body.translatedText.trim().slice(0, 200);
    },
  };
}
