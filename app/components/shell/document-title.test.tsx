import i18next from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, it } from "vitest";
import { supportedLngs } from "~/i18n";
import commonEn from "~/locales/en/common.json";
import commonFr from "~/locales/fr-BE/common.json";
import commonNl from "~/locales/nl-BE/common.json";
import { screens } from "~/route-access";
import { screenRouteId, TITLED_ROUTES } from "./document-title";
import { LocalizedToaster } from "./toaster";

const common = { en: commonEn, "fr-BE": commonFr, "nl-BE": commonNl } as const;

describe("screen titles", () => {
  it("take the deepest matched route that is a screen", () => {
    expect(screenRouteId([{ id: "root" }, { id: "app" }, { id: "view-room" }])).toBe("view-room");
    expect(screenRouteId([{ id: "root" }, { id: "login" }])).toBe("login");
    expect(screenRouteId([{ id: "root" }, { id: "not-found" }])).toBe("not-found");
    expect(screenRouteId([{ id: "root" }, { id: "app" }])).toBeNull();
    expect(screenRouteId([{ id: "root" }])).toBeNull();
  });

  it("exist for every screen of route-access.ts in every language", () => {
    expect(TITLED_ROUTES.size).toBeGreaterThan(screens.length);
    for (const lng of supportedLngs) {
      const names = common[lng].screens as Record<string, string>;
      for (const id of TITLED_ROUTES) expect(names[id], `${lng}: screens.${id}`).toBeTruthy();
    }
  });
});

describe("LocalizedToaster", () => {
  it("gives the toasts' screen-reader texts in the page's language", async () => {
    const i18n = i18next.createInstance();
    await i18n.use(initReactI18next).init({ lng: "fr-BE", resources: { "fr-BE": { common: commonFr } }, defaultNS: "common" });
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <LocalizedToaster
          toasts={[
            { id: "1", type: "success", title: "Créé" },
            { id: "2", type: "error", title: "Échec" },
            { id: "3", type: "info", title: "Note" },
          ]}
        />
      </I18nextProvider>,
    );
    expect(html).toContain("Succès\u00a0: </span>Créé");
    expect(html).toContain("Erreur\u00a0: </span>Échec");
    expect(html).toContain("Information\u00a0: </span>Note");
    expect(html).not.toMatch(/Success|Error:/);
  });
});
