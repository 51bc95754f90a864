import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { Toaster } from "~/components/ui/toast";
import { fallbackLng } from "~/i18n";
import { detectLocale, getT } from "~/i18n.server";
import { useNonce } from "~/lib/nonce";
import { readToast } from "~/lib/toast.server";
import stylesheet from "~/styles/tailwind.css?url";

/** The address-bar theme colour (SPEC.md section 9: a dark blue). */
export const THEME_COLOR = "#1e3a8a";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Caretaker" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = await detectLocale(request);
  const { toast, setCookie } = await readToast(request);
  const t = getT(locale);
  return data(
    {
      locale,
      toast: toast ? { id: toast.id, type: toast.type, title: t(toast.key, toast.params) } : null,
      brand: { color: THEME_COLOR, textColor: "#ffffff" },
    },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>["data"];

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const { i18n } = useTranslation();
  const locale = rootData?.locale ?? i18n.language ?? fallbackLng;
  const brand = rootData?.brand ?? { color: THEME_COLOR, textColor: "#ffffff" };
  useChangeLanguage(locale);
  return (
    <html
      lang={locale}
      style={{ ["--brand" as string]: brand.color, ["--brand-foreground" as string]: brand.textColor }}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={THEME_COLOR} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-background text-foreground antialiased">
        {children}
        <Toaster toasts={rootData?.toast ? [rootData.toast] : []} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
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
      <p className="text-muted-foreground">{status === 404 ? t("notFound.text") : t("errors.tryAgain")}</p>
      <a className="text-primary underline" href="/">
        {t("notFound.home")}
      </a>
    </main>
  );
}
