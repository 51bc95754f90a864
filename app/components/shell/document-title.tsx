import { useMatches } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

/**
 * What a screen about one record adds to its document title, before the screen's name ("#12 Leak ·
 * Incident · Caretaker"), so that tabs can be told apart: a route's `handle.documentTitle` reads it from
 * the route's loader data.
 */
export interface TitledHandle {
  documentTitle?: (data: never, t: TFunction) => string | null | undefined;
}

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

/** The document's only <title>: "[<record> · ]<screen name> · Caretaker" in the page's language. */
export function DocumentTitle() {
  const { t, i18n } = useTranslation("common");
  const matches = useMatches();
  const id = screenRouteId(matches, (routeId) => i18n.exists(`screens.${routeId}`, { ns: "common" }));
  const app = t("app.name");
  const screen = matches.find((m) => m.id === id);
  const titled = (screen?.handle as TitledHandle | undefined)?.documentTitle;
  const record = titled && screen?.data ? titled(screen.data as never, t) : null;
  return <title>{id ? [record, t(`screens.${id}`), app].filter(Boolean).join(" · ") : app}</title>;
}
