import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { supportedLngs } from "~/i18n";

/**
 * The language switch: one small form per language, so it works as a plain post without
 * JavaScript and lands back on the same page.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const back = `${location.pathname}${location.search}`;
  return (
    <nav aria-label={t("language.label")} className="flex items-center gap-1 text-sm">
      {supportedLngs.map((lng) => (
        <Form key={lng} method="post" action="/set-language" reloadDocument>
          <input type="hidden" name="lng" value={lng} />
          <input type="hidden" name="redirectTo" value={back} />
          <button
            type="submit"
            lang={lng}
            aria-current={i18n.language === lng ? "true" : undefined}
            className="rounded px-2 py-1 hover:underline aria-[current=true]:font-semibold aria-[current=true]:underline"
            title={t(`language.${lng}`)}
          >
            {t(`language.short.${lng}`)}
          </button>
        </Form>
      ))}
    </nav>
  );
}
