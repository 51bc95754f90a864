import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import { i18nConfig } from "~/i18n";
import { localeLoader } from "~/lib/locale-backend";
import { createTranslator } from "~/lib/translator";

async function hydrate() {
  // The browser's own small translator (decision 033); the server translates with i18next.
  const i18n = createTranslator({
    lng: document.documentElement.lang,
    defaultNS: i18nConfig.defaultNS,
    ns: [...new Set([...getInitialNamespaces(), ...i18nConfig.ns])],
    react: i18nConfig.react,
    load: localeLoader(document.documentElement.dataset.i18n),
  }).use(initReactI18next);
  try {
    await i18n.init();
  } catch {
    // Without its texts the page would hydrate into bare keys: it stays as the server sent it, where every
    // form and link works as with JavaScript off.
    return;
  }

  startTransition(() => {
    hydrateRoot(
      document,
      // react-i18next reads only the part of an i18next instance the translator offers.
      <I18nextProvider i18n={i18n as never}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
