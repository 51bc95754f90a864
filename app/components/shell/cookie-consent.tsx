import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { useNonce } from "~/lib/nonce";
import { Icon } from "./icons";

export type ConsentValue = "all" | "technical" | null | undefined;

/**
 * Cookie consent (SPEC.md section 1), for every page, signed in or not. Until a choice is made it
 * shows a banner whose "Accept all" / "Technical only" buttons are plain forms posting to
 * /cookie-consent (no JavaScript needed; with it the banner hides at once). Once the visitor accepted
 * all cookies, it loads the analytics script (`analyticsScriptUrl`, only given then) with the CSP nonce.
 *
 * Root: `<CookieConsent consent={data?.consent} analyticsScriptUrl={data?.analyticsScriptUrl} />`.
 */
export function CookieConsent({ consent, analyticsScriptUrl }: { consent: ConsentValue; analyticsScriptUrl?: string | null }) {
  const { t } = useTranslation("shell");
  const nonce = useNonce();
  const location = useLocation();
  const fetcher = useFetcher();
  const back = `${location.pathname}${location.search}`;
  const choosing = fetcher.state !== "idle" || fetcher.formData !== undefined;
  const analytics = consent === "all" && analyticsScriptUrl ? analyticsScriptUrl : null;

  // The server renders the script when the page loads with consent given. When the visitor accepts
  // on this page (JavaScript on), React would insert an inert <script>, so load it by hand instead.
  const loadedWithPage = useRef(analytics !== null);
  useEffect(() => {
    if (!analytics || loadedWithPage.current || document.querySelector("script[data-analytics]")) return;
    const element = document.createElement("script");
    element.src = analytics;
    element.async = true;
    element.dataset.analytics = "";
    document.head.appendChild(element);
  }, [analytics]);

  const script =
    analytics && loadedWithPage.current ? <script nonce={nonce} src={analytics} async defer data-analytics="" /> : null;
  if (consent || choosing) return script;

  return (
    <section
      aria-labelledby="cookie-consent-title"
      data-cookie-banner
      className="relative z-[90] border-b bg-card text-card-foreground shadow-sm"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4 sm:flex-row sm:items-center sm:gap-5 sm:p-5">
        <div className="flex flex-1 gap-3">
          <span aria-hidden="true" className="hidden size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary sm:flex">
            <Icon name="cookie" className="size-5" />
          </span>
          <div className="grid gap-1">
            <h2 id="cookie-consent-title" className="text-sm font-semibold">
              {t("cookies.title")}
            </h2>
            <p className="text-sm text-muted-foreground">{t("cookies.text")}</p>
          </div>
        </div>
        <fetcher.Form method="post" action="/cookie-consent" className="grid shrink-0 grid-cols-2 gap-2 sm:flex sm:flex-col">
          <input type="hidden" name="redirectTo" value={back} />
          <Button type="submit" name="choice" value="all" size="sm">
            {t("cookies.acceptAll")}
          </Button>
          <Button type="submit" name="choice" value="technical" size="sm" variant="outline">
            {t("cookies.technicalOnly")}
          </Button>
        </fetcher.Form>
      </div>
    </section>
  );
}
