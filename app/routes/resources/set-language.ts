import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isLocale } from "~/i18n";
import { localeCookie } from "~/i18n.server";
import { safeRedirectPath } from "~/lib/safe-redirect";

/** The language switch posts here; the choice is kept in a cookie and the user goes back. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const lng = form.get("lng");
  const back = safeRedirectPath(form.get("redirectTo"));
  if (!isLocale(lng)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": await localeCookie.serialize(lng) } });
}

export function loader() {
  return redirect("/");
}
