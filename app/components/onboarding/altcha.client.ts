/**
 * The ALTCHA widget, browser only (loaded by `CaptchaField` with a dynamic import once the page is
 * interactive). The "external" build is used because the default build starts its proof-of-work
 * workers from blob: URLs, which the Content-Security-Policy (script-src 'self') forbids; here the
 * worker is a separate same-origin file emitted by Vite, and the styles a same-origin stylesheet.
 */
import "altcha/external";
import "altcha/altcha.css";
import Pbkdf2Worker from "altcha/workers/pbkdf2?worker";

/** Registers the worker of the server's algorithm and the widget's texts in the page's language. */
export function setUpAltcha(language: string, strings: Record<string, string>) {
  const altcha = globalThis.$altcha;
  if (!altcha.algorithms.has("PBKDF2/SHA-256")) altcha.algorithms.set("PBKDF2/SHA-256", () => new Pbkdf2Worker());
  altcha.i18n.set(language, { ...altcha.i18n.get("en"), ...strings });
}
