import type { AppLoadContext } from "@remix-run/node";
import { sharedLimitStore } from "~/core/shared-limits.server";
import { createResetLimits, type PasswordResetDeps, type ResetLimits } from "~/modules/auth/password-reset.server";
import { captcha } from "~/modules/onboarding/captcha.server";
import type { OnboardingDeps } from "~/modules/onboarding/service.server";

/**
 * What the public flows (sign-up, password reset) need from the running app, taken from the load
 * context: they run before anyone is signed in, so they have no service context.
 */
const holder = globalThis as unknown as { __caretakerResetLimits?: ResetLimits };

export function passwordResetDeps(context: AppLoadContext): PasswordResetDeps {
  const rt = context.runtime;
  holder.__caretakerResetLimits ??= createResetLimits(undefined, undefined, undefined, sharedLimitStore());
  return { db: rt.database.db, appUrl: rt.config.APP_URL, queue: rt.queue, limits: holder.__caretakerResetLimits };
}

export function onboardingDeps(context: AppLoadContext): OnboardingDeps {
  const rt = context.runtime;
  return {
    db: rt.database.db,
    appUrl: rt.config.APP_URL,
    queue: rt.queue,
    verifyCaptcha: (input) => captcha().verify(input),
  };
}
