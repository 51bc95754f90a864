import i18next from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, it } from "vitest";
import { supportedLngs } from "~/i18n";
import commonEn from "~/locales/en/common.json";
import commonFr from "~/locales/fr-BE/common.json";
import commonNl from "~/locales/nl-BE/common.json";
import { screens } from "~/route-access";
import { renderRoutes } from "#tests/render-in-router";
import { handle as incidentHandle } from "~/routes/incident";
import { DocumentTitle, screenRouteId } from "./document-title";
import { PageToasts, ToastStack } from "./toaster";

const common = { en: commonEn, "fr-BE": commonFr, "nl-BE": commonNl } as const;

describe("screen titles", () => {
  const titled = new Set([...screens.map((s) => s.id), "not-found", "report-issue"]);
  const isTitled = (id: string) => titled.has(id);

  it("take the deepest matched route that is a screen", () => {
    expect(screenRouteId([{ id: "root" }, { id: "app" }, { id: "view-room" }], isTitled)).toBe("view-room");
    expect(screenRouteId([{ id: "root" }, { id: "login" }], isTitled)).toBe("login");
    expect(screenRouteId([{ id: "root" }, { id: "not-found" }], isTitled)).toBe("not-found");
    expect(screenRouteId([{ id: "root" }, { id: "app" }], isTitled)).toBeNull();
    expect(screenRouteId([{ id: "root" }], isTitled)).toBeNull();
  });

  it("are named for exactly the screens of route-access.ts, the not-found and report pages, in every language", () => {
    // DocumentTitle takes a route as titled when `common:screens.<route id>` exists: no other route
    // (the root, the layout, resources, API calls) may have such a key.
    for (const lng of supportedLngs) {
      const names = common[lng].screens as Record<string, string>;
      expect(new Set(Object.keys(names)), lng).toEqual(titled);
      for (const id of titled) expect(names[id], `${lng}: screens.${id}`).toBeTruthy();
    }
  });

  it("render the deepest screen's name in the page's language, or the application's name", async () => {
    const i18n = i18next.createInstance();
    await i18n.use(initReactI18next).init({ lng: "nl-BE", resources: { "nl-BE": { common: commonNl } }, defaultNS: "common" });
    // The route ids of the real table: root > app (layout) > facilities.
    const routes = [{ id: "root", path: "/", element: <DocumentTitle />, children: [{ id: "app", children: [{ id: "facilities", path: "facilities", Component: () => null }] }] }];
    const render = (path: string) => renderRoutes(i18n, routes, path);
    expect(await render("/facilities")).toBe(`<title>${commonNl.screens.facilities} · ${commonNl.app.name}</title>`);
    expect(await render("/")).toBe(`<title>${commonNl.app.name}</title>`);
  });

  it("put the record a screen shows first, so that tabs of several can be told apart", async () => {
    const i18n = i18next.createInstance();
    await i18n.use(initReactI18next).init({ lng: "en", resources: { en: { common: commonEn } }, defaultNS: "common" });
    const routes = [
      {
        id: "root",
        path: "/",
        element: <DocumentTitle />,
        children: [{ id: "incident", path: "incident/:id", loader: () => ({ incident: { shortId: 12, title: "Leak" } }), handle: incidentHandle, Component: () => null }],
      },
    ];
    expect(await renderRoutes(i18n, routes, "/incident/5")).toBe(`<title>#12 Leak · ${commonEn.screens.incident} · ${commonEn.app.name}</title>`);
  });
});

describe("the toast stack", () => {
  it("gives the toasts' screen-reader texts in the page's language", async () => {
    const i18n = i18next.createInstance();
    await i18n.use(initReactI18next).init({ lng: "fr-BE", resources: { "fr-BE": { common: commonFr } }, defaultNS: "common" });
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <ToastStack
          flash={[
            { id: "1", type: "success", title: "Créé" },
            { id: "2", type: "error", title: "Échec" },
          ]}
        />
        <PageToasts toasts={[{ id: "3", type: "info", title: "Note" }]} />
      </I18nextProvider>,
    );
    expect(html).toContain("Succès\u00a0: </span>Créé");
    expect(html).toContain('Erreur\u00a0: </span><span data-refusal="">Échec');
    expect(html).toContain("Information\u00a0: </span>Note");
    expect(html).not.toMatch(/Success|Error:/);
    // Before JavaScript runs, a screen's own toasts are drawn where they are; the root's stack is always there.
    expect(html.match(/role="status"/g)).toHaveLength(2);
    expect(renderToStaticMarkup(<PageToasts toasts={[]} />)).toBe("");
  });
});
