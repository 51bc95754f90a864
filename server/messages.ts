import type { Request, Response } from "express";
import en from "../app/locales/en/common.json";
import frBE from "../app/locales/fr-BE/common.json";
import nlBE from "../app/locales/nl-BE/common.json";

/**
 * The short answers of the server's own refusals (403 cross-site, 413 too large, 429 too many), in
 * the visitor's language: the `lng` cookie of the language switch, else Accept-Language, else
 * English. REST requests (/api) get the API's JSON error shape; everything else plain text.
 */
export type HttpMessage = keyof typeof en.http;
const texts = { en: en.http, "fr-BE": frBE.http, "nl-BE": nlBE.http } as const;
type Locale = keyof typeof texts;
const codes: Record<HttpMessage, string> = {
  forbiddenOrigin: "FORBIDDEN_ORIGIN",
  payloadTooLarge: "PAYLOAD_TOO_LARGE",
  tooManyRequests: "TOO_MANY_REQUESTS",
};

function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && Object.hasOwn(texts, value);
}

/** The value of the language cookie (Remix encodes it as base64 JSON). */
function cookieLocale(cookieHeader: string | undefined): Locale | null {
  const raw = /(?:^|;\s*)lng=([^;]{1,64})/.exec(cookieHeader ?? "")?.[1];
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(decodeURIComponent(raw), "base64").toString("utf8"));
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

function headerLocale(header: string | undefined): Locale | null {
  const ranked = (header ?? "")
    .slice(0, 512)
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = Number(/q=([\d.]+)/.exec(params.join(";"))?.[1] ?? 1);
      return { tag: tag.toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const language = tag.split("-")[0];
    if (language === "fr") return "fr-BE";
    if (language === "nl") return "nl-BE";
    if (language === "en") return "en";
  }
  return null;
}

export function requestLocale(req: Request): Locale {
  return cookieLocale(req.get("cookie")) ?? headerLocale(req.get("accept-language")) ?? "en";
}

/** Ends the response with a status and the translated message. */
export function refuse(req: Request, res: Response, status: number, key: HttpMessage): void {
  const message = texts[requestLocale(req)][key];
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (/^\/api(\/|$)/i.test(req.path)) {
    res.json({ code: codes[key], message, messageKey: `common:http.${key}` });
  } else {
    res.type("text/plain; charset=utf-8").send(message);
  }
}
