import { useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * The deepest matched route that names the screen (`isTitled`), or null (e.g. a layout's error page).
 * The routes with a name of their own are the screens of route-access.ts, the not-found page and the
 * report page: exactly the keys of `common:screens` (a unit test keeps the two equal), so the page's
 * JavaScript does not carry the access table to find them.
 */
export function screenRouteId(matches: readonly { id: string }[], isTitled: (id: string) => boolean): string | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    if (isTitled(matches[i].id)) return matches[i].id;
  }
  return null;
}

/** The document's only <title>: "<screen name> · Caretaker" in the page's language. */
export function DocumentTitle() {
  const { t, i18n } = useTranslation("common");
  const id = screenRouteId(useMatches(), (routeId) => i18n.exists(`screens.${routeId}`, { ns: "common" }));
  const app = t("app.name");
  return <title>{id ? `${t(`screens.${id}`)} · ${app}` : app}</title>;
}
