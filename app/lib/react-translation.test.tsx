import i18next from "i18next";
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import * as reactI18next from "react-i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig, supportedLngs } from "~/i18n";
import { resources } from "~/i18n.server";
import * as lite from "~/lib/react-translation";
import { type Bundle, createTranslator } from "~/lib/translator";

/**
 * The browser's react-i18next (app/lib/react-translation.ts) must render what react-i18next renders on
 * the server, or hydration would change the page's texts: the same components, in the ways the pages
 * call `useTranslation`, rendered with react-i18next over i18next (the server) and with this module over
 * the browser's translator (the browser).
 */
type Hooks = Pick<typeof lite, "useTranslation">;

function probes(hooks: Hooks): ComponentType[] {
  const { useTranslation } = hooks;
  return [
    function DefaultNamespace() {
      const { t, i18n } = useTranslation();
      return <p lang={i18n.language}>{`${t("list.range", { from: 1, to: 25, total: 73 })} ${t("list.page", { page: 2, pages: 3 })}`}</p>;
    },
    function OneNamespace() {
      const { t } = useTranslation("rooms");
      return <p>{`${t("list.title", "Rooms")} ${t("common:list.next")} ${t("no.such.key")}`}</p>;
    },
    function SeveralNamespaces() {
      const { t } = useTranslation(["onboarding", "common"]);
      return <p>{`${t("common:list.previous")} ${t("list.empty")}`}</p>;
    },
    function Prefixed() {
      const { t } = useTranslation("common", { keyPrefix: "list" });
      return <p>{`${t("perPage")} ${t("capped", { total: 10000 })}`}</p>;
    },
    function ArrayForm() {
      const [t, , ready] = useTranslation("incidentList");
      return <p data-ready={String(ready)}>{String(t("common:list.apply"))}</p>;
    },
  ];
}

function page(hooks: Hooks, Provider: ComponentType<{ i18n: never; children: React.ReactNode }>, i18n: unknown): string {
  return renderToString(
    <Provider i18n={i18n as never}>
      {probes(hooks).map((Probe, i) => (
        <Probe key={i} />
      ))}
    </Provider>,
  );
}

describe("the browser's react-i18next", () => {
  it("renders what react-i18next renders, in every language", async () => {
    for (const lng of supportedLngs) {
      const server = i18next.createInstance();
      await server.use(reactI18next.initReactI18next).init({ ...i18nConfig, lng, resources, initImmediate: false, fallbackLng: false });
      const browser = createTranslator({ lng, defaultNS: i18nConfig.defaultNS, ns: i18nConfig.ns, load: async (l) => resources[l] as Bundle });
      await browser.init();

      const theirs = page(reactI18next as unknown as Hooks, reactI18next.I18nextProvider as never, server);
      const ours = page(lite, lite.I18nextProvider as never, browser);
      expect(ours).toBe(theirs);
      expect(theirs).toContain(String(server.t("common:list.next")));
      expect(theirs).not.toContain("list.next");
    }
  });

  it("uses the instance given by initReactI18next outside a provider, and follows a language change", async () => {
    const browser = createTranslator({ lng: "en", defaultNS: i18nConfig.defaultNS, ns: i18nConfig.ns, load: async (l) => resources[l] as Bundle });
    browser.use(lite.initReactI18next);
    await browser.init();
    const Probe = probes(lite)[0];
    expect(renderToString(<Probe />)).toContain('lang="en"');
    await browser.changeLanguage("nl-BE");
    const dutch = renderToString(<Probe />);
    expect(dutch).toContain('lang="nl-BE"');
    expect(dutch).toContain(String(resources["nl-BE"].common && (resources["nl-BE"].common as { list: { page: string } }).list.page).replace("{{page}}", "2").replace("{{pages}}", "3"));
  });
});
