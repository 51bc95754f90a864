import { createCookie } from "@remix-run/node";
import { config, secureCookies } from "~/config.server";

/**
 * Cookie consent (SPEC.md sections 1 and 4): "all" lets the analytics script load, "technical" keeps
 * only what the product needs. The choice lives one year in the `consent` cookie; no cookie means the
 * banner is shown. Technical data (session, language, toasts, this cookie) is kept regardless.
 */
export const CONSENT_CHOICES = ["all", "technical"] as const;
export type ConsentChoice = (typeof CONSENT_CHOICES)[number];

export const consentCookie = createCookie("consent", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

/** The Set-Cookie header of a choice (Secure when the app is served over https, like every cookie of the app). */
export function consentCookieHeader(choice: ConsentChoice): Promise<string> {
  return consentCookie.serialize(choice, { secure: secureCookies() });
}

export function isConsentChoice(value: unknown): value is ConsentChoice {
  return typeof value === "string" && (CONSENT_CHOICES as readonly string[]).includes(value);
}

/** The visitor's choice, or null while none was made. */
export async function readConsent(request: Request): Promise<ConsentChoice | null> {
  const value: unknown = await consentCookie.parse(request.headers.get("Cookie"));
  return isConsentChoice(value) ? value : null;
}

/**
 * What the root loader passes to `<CookieConsent>`: the choice, and the analytics script address
 * only when the visitor accepted all cookies and ANALYTICS_SCRIPT_URL is configured.
 */
export async function consentData(request: Request): Promise<{ consent: ConsentChoice | null; analyticsScriptUrl: string | null }> {
  const consent = await readConsent(request);
  const url = config().ANALYTICS_SCRIPT_URL;
  return { consent, analyticsScriptUrl: consent === "all" && url ? url : null };
}
