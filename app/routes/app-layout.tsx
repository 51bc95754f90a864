import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Brand } from "~/components/shell/brand";
import { HelpLink } from "~/components/shell/help-link";
import { LanguageSwitch } from "~/components/shell/language-switch";
import { MainNav } from "~/components/shell/main-nav";
import { type MenuEntry, menuFor } from "~/components/shell/menu";
import { MobileMenu } from "~/components/shell/mobile-menu";
import { NotificationsBell } from "~/components/shell/notifications-bell";
import { OfflineStatus } from "~/components/shell/offline-status";
import { ReportDialog } from "~/components/shell/report-dialog";
import { ScanLink } from "~/components/shell/scan-link";
import { UserMenu } from "~/components/shell/user-menu";
import { personKey } from "~/lib/offline-rules";
import { guard, mayOpen } from "~/modules/auth/guard.server";
import { countNotifications } from "~/modules/notifications/queries.server";
import { screensById } from "~/route-access";
import type { loader as rootLoader } from "~/root";

/**
 * The signed-in layout: every screen under it needs a user (each screen's own loader checks its
 * role). It loads what the shell shows: the menu entries the user's role may open (from
 * route-access.ts, so a technician never sees a link to a forbidden page), the unread
 * notification count for the bell, and the help site's address.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await guard(request, context);
  if (!user) throw redirect("/login"); // the guard already sends signed-out visitors there
  const rt = context.runtime;
  // Read with the session check on reads (app/modules/auth/session.server.ts); counted here otherwise.
  const unread = context.auth.shell?.unread ?? (await countNotifications(rt.database.db, user.entityId, user.id)).unread;
  return { menu: menuText(user.role), unread, helpBaseUrl: rt.config.HELP_BASE_URL ?? null };
}

/** The menu of each role as JSON text, made on first use. */
const menuTexts = new Map<number, string>();

/**
 * The menu as a role sees it, sent as one string of JSON: the same for every user of a role, and as
 * structured loader data it was about 160 values to serialise on every page and every navigation.
 */
function menuText(role: number): string {
  let text = menuTexts.get(role);
  if (text === undefined) {
    text = JSON.stringify(
      menuFor((screenId) => {
        const screen = screensById.get(screenId);
        return screen ? mayOpen(screen, role) : false;
      }),
    );
    menuTexts.set(role, text);
  }
  return text;
}

/** The menus read from their text, by text (one or two in practice). */
const menusRead = new Map<string, MenuEntry[]>();

function readMenu(text: string): MenuEntry[] {
  let menu = menusRead.get(text);
  if (!menu) {
    menu = JSON.parse(text) as MenuEntry[];
    if (menusRead.size < 8) menusRead.set(text, menu);
  }
  return menu;
}

/** The menu's element, which the narrow screens' menu button shows and controls. */
const MENU_ID = "main-menu";

export default function AppLayout() {
  const { t } = useTranslation("shell");
  const { menu: menuJson, unread, helpBaseUrl } = useLoaderData<typeof loader>();
  const menu = readMenu(menuJson);
  const profile = useRouteLoaderData<typeof rootLoader>("root")?.profile;
  const entity = profile?.entity ?? { name: t("common:app.name"), logoFileId: null };

  return (
    <div className="min-h-screen bg-muted/40">
      <a
        href="#main"
        className="sr-only z-[60] rounded-md bg-background px-4 py-2 text-sm font-semibold text-foreground shadow focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        {t("skipToContent")}
      </a>

      <header className="sticky top-0 z-40 bg-primary text-primary-foreground shadow-sm">
        <div className="flex h-14 items-center gap-1 px-2 sm:gap-2 sm:px-4 lg:h-16 lg:px-6">
          <MobileMenu menuId={MENU_ID} className="lg:hidden" />
          <Brand entity={entity} className="mr-auto px-1" />
          <LanguageSwitch tone="brand" className="mr-1 hidden sm:inline-flex" />
          <HelpLink baseUrl={helpBaseUrl} />
          <ScanLink />
          <NotificationsBell unread={unread} />
          {profile ? <UserMenu user={profile} /> : null}
        </div>
      </header>

      {/* Rendered before the content so that, without JavaScript, it comes first in the tab order. */}
      <ReportDialog />

      <div className="lg:flex lg:min-h-[calc(100dvh-4rem)]">
        {/* The one menu: the sidebar, and on narrow screens the panel of the header's menu button. */}
        <aside id={MENU_ID} className="shell-menu">
          <div className="shell-menu-scroll">
            <MainNav menu={menu} />
          </div>
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-hidden sm:px-6 lg:px-10 lg:py-8">
          <div className="mx-auto w-full max-w-6xl">
            {profile ? <OfflineStatus person={personKey(profile.entity.id, profile.id)} /> : null}
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}
