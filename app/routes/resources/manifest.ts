import type { LoaderFunctionArgs } from "@remix-run/node";
import { getT } from "~/i18n.server";
import { brandColors } from "~/lib/contrast";
import { guard } from "~/modules/auth/guard.server";
import { getProfile } from "~/modules/users/queries.server";
import { localeByUserLanguage } from "~/i18n";
import { THEME_COLOR } from "~/root";

/**
 * GET /manifest.webmanifest: the web app manifest of signed-in staff (issue 64): the app installs with the
 * entity's name and colours and opens at the person's landing page. Signed out, the app's own.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await guard(request, context);
  const profile = user ? await getProfile(context.runtime.database.db, user.id, user.entityId) : null;
  const locale = profile ? localeByUserLanguage[profile.language] : "en";
  const t = getT(locale);
  const app = t("common:app.name");
  const colors = profile ? brandColors(profile.entity.templateColor, profile.entity.templateTextColor, { color: THEME_COLOR, textColor: "#ffffff" }) : null;
  const manifest = {
    name: profile ? `${profile.entity.name} · ${app}` : app,
    short_name: app,
    lang: locale,
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: colors?.background ?? THEME_COLOR,
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/manifest+json", "Cache-Control": "private, no-cache", Vary: "Cookie" } });
}
