import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { consentCookieHeader, isConsentChoice } from "~/components/shell/consent.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { formDataOf } from "~/http/form-action.server";

/**
 * POST /cookie-consent (the banner's "Accept all" / "Technical only" buttons, plain forms):
 * `choice` = all | technical is kept one year in the `consent` cookie, then back to `redirectTo`.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await formDataOf(request);
  const back = safeRedirectPath(form.get("redirectTo"));
  const choice = form.get("choice");
  if (!isConsentChoice(choice)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": await consentCookieHeader(choice) } });
}

/** A plain visit goes home. */
export function loader() {
  return redirect("/");
}
