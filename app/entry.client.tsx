import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { createBrowserI18n } from "~/i18n.client";

async function hydrate() {
  // i18next with react-i18next, as on the server (remix-i18next's set-up; decision 005): the page's
  // language from <html lang>, its texts loaded before hydration.
  const i18n = await createBrowserI18n({ lng: document.documentElement.lang, version: document.documentElement.dataset.i18n });
  // Without its texts the page would hydrate into bare keys: it stays as the server sent it, where every
  // form and link works as with JavaScript off.
  if (!i18n) return;

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
