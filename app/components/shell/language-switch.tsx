import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { supportedLngs } from "~/i18n";
import { cn } from "~/lib/utils";

/**
 * The language switch: one small form per language, so it works as a plain post without
 * JavaScript and lands back on the same page. `tone="brand"` for the brand-coloured header.
 */
export function LanguageSwitch({ tone = "default", className }: { tone?: "default" | "brand"; className?: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const back = `${location.pathname}${location.search}`;
  return (
    <nav
      aria-label={t("language.label")}
      className={cn(
        "inline-flex items-center gap-0.5 rounded-full border p-0.5 text-xs font-semibold",
        tone === "brand" ? "border-primary-foreground/25" : "border-border bg-background",
        className,
      )}
    >
      {supportedLngs.map((lng) => (
        <Form key={lng} method="post" action="/set-language" reloadDocument>
          <input type="hidden" name="lng" value={lng} />
          <input type="hidden" name="redirectTo" value={back} />
          <button
            type="submit"
            lang={lng}
            aria-current={i18n.language === lng ? "true" : undefined}
            title={t(`language.${lng}`)}
            // The stylesheet's .lang-btn (app/styles/tailwind.css): three of them on every page, twice.
            className={tone === "brand" ? "lang-btn lang-btn-brand" : "lang-btn"}
          >
            {t(`language.short.${lng}`)}
          </button>
        </Form>
      ))}
    </nav>
  );
}
