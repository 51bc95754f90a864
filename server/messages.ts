import type { Request, Response } from "express";
import en from "../app/locales/en/common.json";
import frBE from "../app/locales/fr-BE/common.json";
import nlBE from "../app/locales/nl-BE/common.json";
import { escapeHtml } from "../app/lib/html";

/**
 * The short answers of the server's own refusals (403 cross-site, 413 too large, 429 too many, 503 the
 * database not answering), in
 * the visitor's language: the `lng` cookie of the language switch, else Accept-Language, else
 * English. REST requests (/api) get the API's JSON error shape; a browser (Accept prefers HTML: a
 * form posted without JavaScript, a link) a small page with the message and a way back; anything
 * else plain text.
 */
export type HttpMessage = keyof typeof en.http;
const texts = { en: en.http, "fr-BE": frBE.http, "nl-BE": nlBE.http } as const;
const commons = { en, "fr-BE": frBE, "nl-BE": nlBE } as const;
type Locale = keyof typeof texts;
const codes: Record<HttpMessage, string> = {
  forbiddenOrigin: "FORBIDDEN_ORIGIN",
  payloadTooLarge: "PAYLOAD_TOO_LARGE",
  tooManyRequests: "TOO_MANY_REQUESTS",
  temporarilyUnavailable: "SERVICE_UNAVAILABLE",
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
  const locale = requestLocale(req);
  const message = texts[locale][key];
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (/^\/api(\/|$)/i.test(req.path)) {
    res.json({ code: codes[key], message, messageKey: `common:http.${key}` });
  } else if (req.accepts(["text/plain", "text/html"]) === "text/html") {
    res.type("text/html; charset=utf-8").send(refusalPage(locale, message, backHref(req)));
  } else {
    res.type("text/plain; charset=utf-8").send(message);
  }
}

/** Where "Back" leads: the page the request came from when it is this site's, else the home page. */
export function backHref(req: Request): string {
  const referer = req.get("referer");
  if (!referer) return "/";
  try {
    const from = new URL(referer);
    // The host alone: behind a TLS proxy the request itself may be plain HTTP.
    return (from.protocol === "https:" || from.protocol === "http:") && from.host === req.get("host") ? `${from.pathname}${from.search}` : "/";
  } catch {
    return "/";
  }
}

/**
 * The refusal as a page of its own (the app's stylesheet has a hashed name the server does not know
 * here, so the few styles are inline): the language, a title, one heading and a link back.
 */
function refusalPage(locale: Locale, message: string, back: string): string {
  const common = commons[locale];
  return [
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(message)} · ${escapeHtml(common.app.name)}</title>`,
    `<style>body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a}`,
    `main{max-width:32rem;padding:2rem 1.5rem;text-align:center}h1{font-size:1.25rem;line-height:1.4;font-weight:600}a{color:#1e3a8a;font-weight:500}</style>`,
    `</head><body><main><h1>${escapeHtml(message)}</h1>`,
    `<p><a href="${escapeHtml(back)}">${escapeHtml(common.actions.back)}</a></p></main></body></html>`,
  ].join("");
}
