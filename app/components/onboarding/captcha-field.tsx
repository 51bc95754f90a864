import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type {} from "altcha/types/react";
import type { AltchaWidgetElement } from "altcha/types/generic";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

export interface CaptchaQuestion {
  a: number;
  b: number;
  token: string;
}

/** The widget's state, read by the form before it submits (see `ensureCaptcha`). */
export const CAPTCHA_WIDGET_ID = "signup-captcha";

/**
 * The sign-up captcha. With JavaScript: the ALTCHA proof-of-work widget, loaded on the client only,
 * solving by itself as soon as it appears and posting its payload in the hidden field `altcha`.
 * Without JavaScript: a small arithmetic question (`answer`, with its signed `questionToken`) inside
 * <noscript>.
 */
export function CaptchaField({ question }: { question: CaptchaQuestion }) {
  const { t, i18n } = useTranslation("onboarding");
  const [ready, setReady] = useState(false);
  const language = (i18n.language || "en").toLowerCase();

  useEffect(() => {
    let cancelled = false;
    void import("./altcha.client").then(({ setUpAltcha }) => {
      setUpAltcha(language, {
        label: t("signup.captcha.label"),
        verifying: t("signup.captcha.verifying"),
        verified: t("signup.captcha.verified"),
        error: t("signup.captcha.error"),
        expired: t("signup.captcha.expired"),
        verificationRequired: t("signup.captcha.required"),
        waitAlert: t("signup.captcha.wait"),
        footer: t("signup.captcha.footer"),
      });
      if (!cancelled) setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [language, t]);

  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">{t("signup.captcha.legend")}</legend>
      {ready ? (
        <altcha-widget
          id={CAPTCHA_WIDGET_ID}
          challenge="/altcha/challenge"
          auto="onload"
          name="altcha"
          language={language}
          style={{ ["--altcha-max-width" as string]: "100%" }}
        />
      ) : (
        <ScriptOnly>
          <p className="text-sm text-muted-foreground">{t("signup.captcha.loading")}</p>
        </ScriptOnly>
      )}
      <noscript>
        <input type="hidden" name="questionToken" value={question.token} />
        <Field label={t("signup.captcha.question", { a: question.a, b: question.b })} htmlFor="captcha-answer" description={t("signup.captcha.answerHint")}>
          <Input id="captcha-answer" name="answer" inputMode="numeric" autoComplete="off" required aria-describedby="captcha-answer-description" className="max-w-32" />
        </Field>
      </noscript>
    </fieldset>
  );
}

/** Rendered on the server too, but hidden until scripts run (so a no-script page does not show it). */
function ScriptOnly({ children }: { children: React.ReactNode }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? <>{children}</> : null;
}

/**
 * Called by the form's submit handler: when the widget has not finished (slow device, expired
 * challenge), stops this submit, lets the widget solve, then submits again with the same button.
 * Returns true when the submit may go on.
 */
export function ensureCaptcha(event: { preventDefault(): void; nativeEvent?: Event }, form: HTMLFormElement | null): boolean {
  const widget = document.getElementById(CAPTCHA_WIDGET_ID) as AltchaWidgetElement | null;
  if (!widget || typeof widget.getState !== "function" || !form) return true;
  const state = widget.getState();
  if (state === "verified") return true;
  event.preventDefault();
  const submitter = (event.nativeEvent as SubmitEvent | undefined)?.submitter as HTMLButtonElement | null | undefined;
  const resubmit = () => form.requestSubmit(submitter ?? undefined);
  if (state === "verifying") {
    widget.addEventListener("verified", resubmit, { once: true });
  } else {
    void widget.verify().then((result) => {
      if (result && widget.getState() === "verified") resubmit();
    });
  }
  return false;
}
