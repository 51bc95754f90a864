import { useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { screens } from "~/route-access";

/** Route ids with a name of their own (`common:screens.<id>`): the screens, the not-found page, the report page. */
export const TITLED_ROUTES: ReadonlySet<string> = new Set([...screens.map((s) => s.id), "not-found", "report-issue"]);

/** The deepest matched route that names the screen, or null (e.g. a layout's error page). */
export function screenRouteId(matches: readonly { id: string }[]): string | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    if (TITLED_ROUTES.has(matches[i].id)) return matches[i].id;
  }
  return null;
}

/** The document's only <title>: "<screen name> · Caretaker" in the page's language. */
export function DocumentTitle() {
  const { t } = useTranslation("common");
  const id = screenRouteId(useMatches());
  const app = t("app.name");
  return <title>{id ? `${t(`screens.${id}`)} · ${app}` : app}</title>;
}
