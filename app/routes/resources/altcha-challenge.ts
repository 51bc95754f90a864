import type { LoaderFunctionArgs } from "@remix-run/node";
import { guard } from "~/modules/auth/guard.server";
import { captcha } from "~/modules/onboarding/captcha.server";

/** GET /altcha/challenge: a fresh, signed proof-of-work challenge for the sign-up widget. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request, context);
  const challenge = await captcha().altchaChallenge();
  return Response.json(challenge, { headers: { "Cache-Control": "no-store" } });
}
