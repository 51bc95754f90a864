import { isLocale, localeByUserLanguage, fallbackLng, type Locale } from "~/i18n";
import { getT } from "~/i18n.server";
import type { Mail } from "./mailer.server";
import { escapeHtml } from "~/lib/html";

/**
 * Transactional emails: subject, plain text and HTML, in the recipient's language.
 *
 * A mail is a block of translation keys under one prefix (`onboarding:mail.<key>` unless the key
 * names its own namespace, e.g. `users:mail.invitation`):
 *   subject   (required)
 *   greeting  optional first line ("Hello {{name}},")
 *   intro     the message (paragraphs separated by a blank line)
 *   action    optional button text; the button points to `params.link`
 *   outro     optional closing paragraph (validity, "ignore this email if …")
 * plus the shared `onboarding:mail.signature` and `onboarding:mail.linkFallback`.
 * Parameters are interpolated into every text and HTML-escaped in the HTML part.
 */
export type MailParams = Record<string, string | number> & { link?: string };
export type RenderedMail = Pick<Mail, "subject" | "text" | "html" | "link">;

/** The mails of this area, with the parameters each needs. */
export interface MailCatalogue {
  signupVerification: { name: string; entityName: string; link: string; hours: number };
  passwordReset: { name: string; link: string; minutes: number };
}

/** The recipient's language: a stored user language (0/1/2) or a locale code; English otherwise. */
export function mailLocale(language: number | string | null | undefined): Locale {
  if (typeof language === "number") return localeByUserLanguage[language] ?? fallbackLng;
  return isLocale(language) ? language : fallbackLng;
}

function prefixOf(key: string): string {
  return key.includes(":") ? key : `onboarding:mail.${key}`;
}

export function renderMail<K extends keyof MailCatalogue>(locale: Locale, key: K, params: MailCatalogue[K]): RenderedMail;
export function renderMail(locale: Locale, key: string, params: MailParams): RenderedMail;
export function renderMail(locale: Locale, key: string, params: MailParams): RenderedMail {
  const t = getT(locale, "onboarding");
  const prefix = prefixOf(key);
  const text = (part: string, values: MailParams = params) => {
    const full = `${prefix}.${part}`;
    const value = t(full, { ...values, defaultValue: "" });
    return typeof value === "string" ? value : "";
  };
  const subject = text("subject");
  if (!subject) throw new Error(`mail template ${prefix} has no subject in ${locale}`);
  const greeting = text("greeting");
  const intro = text("intro");
  const action = text("action");
  const outro = text("outro");
  const signature = t("onboarding:mail.signature");
  const fallback = t("onboarding:mail.linkFallback");
  const link = typeof params.link === "string" ? params.link : undefined;

  const paragraphs = (value: string) => value.split(/\n{2,}/).filter(Boolean);

  const textParts = [
    greeting,
    ...paragraphs(intro),
    link ? (action ? `${action}:\n${link}` : link) : "",
    ...paragraphs(outro),
    signature,
  ].filter(Boolean);

  // For the HTML part every value is escaped before interpolation.
  const escaped: MailParams = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? escapeHtml(v) : v]),
  );
  const html = (part: string) => text(part, escaped);
  const p = (content: string) => `<p style="margin:0 0 16px;line-height:1.5">${content.replace(/\n/g, "<br>")}</p>`;
  const safeLink = link ? escapeHtml(link) : "";
  const htmlBody = [
    greeting ? p(html("greeting")) : "",
    ...paragraphs(html("intro")).map(p),
    link && action
      ? `<p style="margin:24px 0"><a href="${safeLink}" style="display:inline-block;background:#1e3a8a;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action)}</a></p>` +
        `<p style="margin:0 0 16px;font-size:13px;color:#555555">${escapeHtml(fallback)}<br><a href="${safeLink}" style="color:#1e3a8a;word-break:break-all">${safeLink}</a></p>`
      : link
        ? p(`<a href="${safeLink}">${safeLink}</a>`)
        : "",
    ...paragraphs(html("outro")).map(p),
    p(escapeHtml(signature)),
  ].join("\n");

  const document = `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7">
<div style="max-width:560px;margin:0 auto;padding:24px 16px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:15px;color:#1f2937">
<p style="margin:0 0 24px;font-size:20px;font-weight:700;color:#1e3a8a">Caretaker</p>
<div style="background:#ffffff;border-radius:8px;padding:24px">
${htmlBody}
</div>
</div>
</body>
</html>`;

  return { subject, text: textParts.join("\n\n"), html: document, ...(link ? { link } : {}) };
}

/** The sign-up verification mail (link to /signup/verify?token=…). */
export function signupVerificationMail(locale: Locale, params: MailCatalogue["signupVerification"]) {
  return renderMail(locale, "signupVerification", params);
}

/** The password-reset mail (link to /password/reset?token=…). */
export function passwordResetMail(locale: Locale, params: MailCatalogue["passwordReset"]) {
  return renderMail(locale, "passwordReset", params);
}
