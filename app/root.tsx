import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { consentData } from "~/components/shell/consent.server";
import { CookieConsent } from "~/components/shell/cookie-consent";
import { DocumentTitle } from "~/components/shell/document-title";
import { ToastStack } from "~/components/shell/toaster";
import { fallbackLng, localeByUserLanguage } from "~/i18n";
import { detectLocale, getT, localesVersion } from "~/i18n.server";
import { brandColors } from "~/lib/contrast";
import { DEFAULT_TIME_ZONE } from "~/lib/dates";
import { TimeZoneProvider } from "~/lib/use-dates";
import { useNonce } from "~/lib/nonce";
import { readToast } from "~/http/toast.server";
import { KEPT_FOR_HEADER } from "~/lib/offline-rules";
import { logout } from "~/modules/auth/service.server";
import { clearTokens, commitSession } from "~/modules/auth/session.server";
import { getProfile, type Profile } from "~/modules/users/queries.server";
import stylesheet from "~/styles/tailwind.css?url";

/** The address-bar theme colour (SPEC.md section 9: a dark blue). */
export const THEME_COLOR = "#1e3a8a";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, session, shell } = context.auth;
  let profile: Profile | null = null;
  if (user) {
    // Read with the session check when the request is a read (one query for the shell).
    profile = shell ? shell.profile : await getProfile(context.runtime.database.db, user.id, user.entityId);
    if (!profile) {
      // A failed profile load logs the user out (SPEC.md section 4).
      if (user.sessionId) await logout(context.runtime.auth, { sessionId: user.sessionId });
      clearTokens(session);
      session.flash("authMessage", "sessionExpired");
      throw redirect("/login", { headers: { "Set-Cookie": await commitSession(session) } });
    }
  }
  const locale = await detectLocale(request, profile ? localeByUserLanguage[profile.language] : null);
  // A page the service worker keeps (issue 64) leaves the flash toast to the page the person opens.
  const { toast, setCookie } = request.headers.has(KEPT_FOR_HEADER) ? { toast: null, setCookie: null } : await readToast(request);
  const t = getT(locale);
  const consent = await consentData(request);
  return data(
    {
      ...consent,
      locale,
      localesVersion,
      profile,
      // The entity's time zone, read with the session: every date of the page (server render and
      // hydration alike) is written in it.
      timeZone: user?.timeZone ?? DEFAULT_TIME_ZONE,
      toast: toast ? { id: toast.id, type: toast.type, title: t(toast.key, toast.params) } : null,
      // The entity's colours, with text colours that stay readable on them (WCAG AA), worked out here
      // so the contrast helpers stay out of every page's JavaScript.
      brand: profile
        ? brandColors(profile.entity.templateColor, profile.entity.templateTextColor, { color: THEME_COLOR, textColor: "#ffffff" })
        : null,
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>["data"];

/**
 * A route exporting `handle = { scripts: false }` is served without JavaScript: no <Scripts/> (so no
 * hydration, no route modules, no inline context) and no <ScrollRestoration/>. Pages that must stay
 * light on any phone (the occupier's report pages) use it; their forms are plain posts.
 */
export interface ScriptsHandle {
  scripts?: boolean;
}

export function usePageScripts(): boolean {
  return !useMatches().some((match) => (match.handle as ScriptsHandle | undefined)?.scripts === false);
}

const NO_TOASTS: readonly never[] = [];

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const scripts = usePageScripts();
  const { i18n } = useTranslation();
  const locale = rootData?.locale ?? i18n.language ?? fallbackLng;
  // Without an entity (visitors, an error before the root loader) the stylesheet's defaults apply.
  const colors = rootData?.brand;
  useChangeLanguage(locale);
  return (
    <html
      lang={locale}
      data-i18n={rootData?.localesVersion}
      style={
        colors
          ? {
              ["--brand" as string]: colors.background,
              ["--brand-foreground" as string]: colors.foreground,
              ["--brand-muted-foreground" as string]: colors.muted,
              ["--brand-hover" as string]: colors.hover,
            }
          : undefined
      }
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={colors?.background ?? THEME_COLOR} />
        {/* Signed-in staff may install the app (issue 64); the occupier's pages are not an app. */}
        {rootData?.profile ? <link rel="manifest" href="/manifest.webmanifest" crossOrigin="use-credentials" /> : null}
        <DocumentTitle />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-background text-foreground antialiased">
        {/* In the page flow, above everything: the banner never covers a form or a button. */}
        <CookieConsent consent={rootData?.consent} analyticsScriptUrl={scripts ? rootData?.analyticsScriptUrl : null} />
        <TimeZoneProvider value={rootData?.timeZone ?? DEFAULT_TIME_ZONE}>{children}</TimeZoneProvider>
        <ToastStack flash={rootData?.toast ? [rootData.toast] : NO_TOASTS} />
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">{t("errors.oups")}</h1>
      <p className="text-muted-foreground">
        {status === 404 ? t("notFound.text") : status === 503 ? t("errors.temporarilyUnavailable") : t("errors.tryAgain")}
      </p>
      <a className="text-primary underline" href="/">
        {t("notFound.home")}
      </a>
    </main>
  );
}
