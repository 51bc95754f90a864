import { personActor } from "~/core/actor";
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isLocale, userLanguageByLocale } from "~/i18n";
import { localeCookieHeader } from "~/i18n.server";
import { logger } from "~/lib/logger.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { setLanguage } from "~/modules/users/service.server";
import { formDataOf } from "~/http/form-action.server";

/**
 * The language switch posts here; the choice is kept in a cookie and the user goes back. A signed-in
 * user's language setting is changed too (it wins over the cookie on every page).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await formDataOf(request);
  const lng = form.get("lng");
  const back = safeRedirectPath(form.get("redirectTo"));
  if (!isLocale(lng)) return redirect(back);
  const user = context.auth.user;
  if (user) {
    try {
      const rt = context.runtime;
      await setLanguage(
        { db: rt.database.db, entityId: user.entityId, actor: personActor(user), locale: lng, timeZone: user.timeZone },
        { language: userLanguageByLocale[lng] as 0 | 1 | 2 },
      );
    } catch (err) {
      // The cookie still applies for this browser; the setting stays as it was.
      logger().warn({ err }, "set-language: could not store the user's language");
    }
  }
  return redirect(back, { headers: { "Set-Cookie": await localeCookieHeader(lng) } });
}

export function loader() {
  return redirect("/");
}
