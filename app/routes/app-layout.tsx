import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, Outlet, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "~/components/shell/language-switch";
import { guard } from "~/modules/auth/guard.server";
import type { loader as rootLoader } from "~/root";

/** The signed-in layout: every screen under it needs a user (each screen's own loader checks its role). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request, context);
  return null;
}

export default function AppLayout() {
  const { t } = useTranslation(["common", "auth"]);
  const profile = useRouteLoaderData<typeof rootLoader>("root")?.profile;
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex items-center justify-between gap-4 bg-primary px-4 py-3 text-primary-foreground">
        <Link to="/" className="text-lg font-semibold">
          {t("app.name")}
        </Link>
        <div className="flex items-center gap-3">
          <LanguageSwitch />
          {profile ? (
            <Form method="post" action="/logout">
              <span className="mr-2 text-sm">
                {profile.name} {profile.surname}
              </span>
              <button type="submit" className="rounded px-2 py-1 text-sm underline">
                {t("auth:logout")}
              </button>
            </Form>
          ) : null}
        </div>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 p-4 sm:p-6">
        <Outlet />
      </main>
    </div>
  );
}
