import { useLocation } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { dialogHref } from "~/components/ui/dialog";
import { LinkArea } from "~/components/ui/link-area";
import { cn } from "~/lib/utils";
import { Icon } from "./icons";
import { activeMenuId, type MenuEntry, type MenuLink } from "./menu";

/** A menu row's classes (`.shell-menu-link` and its states, in tailwind.css: once there, not on every row). */
const rowIdle = "shell-menu-link";
const rowActive = "shell-menu-link shell-menu-link-active";

/**
 * The navigation menu (SPEC.md section 2): groups with their sub-items, single
 * links, and the Report entry that opens the bug/suggestion dialog on the current page. The menu
 * comes already filtered for the user's role; the active item carries `aria-current="page"`. Its entries
 * are plain anchors that the `LinkArea` keeps in the app (two menus on every page: 24 `<Link>`s less).
 */
export function MainNav({ menu, id, className }: { menu: MenuEntry[]; id?: string; className?: string }) {
  const { t } = useTranslation("shell");
  const location = useLocation();
  const active = activeMenuId(menu, location.pathname, location.search);
  const baseId = useId();

  const link = (item: MenuLink, nested: boolean) => {
    const current = item.id === active;
    return (
      <li key={item.id}>
        <a
          href={item.to}
          aria-current={current ? "page" : undefined}
          data-menu-item={item.id}
          className={cn(current ? rowActive : rowIdle, nested && "shell-menu-link-nested")}
        >
          {item.icon ? <Icon name={item.icon} className="size-[1.125rem]" /> : null}
          <span className="min-w-0 leading-snug">{t(`menu.items.${item.id}`)}</span>
        </a>
      </li>
    );
  };

  return (
    <LinkArea as="nav" aria-label={t("menu.label")} id={id} className={className}>
      <ul role="list" className="grid gap-1">
        {menu.map((entry) => {
          if (entry.kind === "link") return link(entry, false);
          if (entry.kind === "dialog") {
            return (
              <li key={entry.id}>
                <a
                  href={dialogHref(location, entry.dialog)}
                  data-prevent-scroll-reset
                  aria-haspopup="dialog"
                  data-menu-item={entry.id}
                  className={rowIdle}
                >
                  {entry.icon ? <Icon name={entry.icon} className="size-[1.125rem]" /> : null}
                  <span className="min-w-0 leading-snug">{t(`menu.items.${entry.id}`)}</span>
                </a>
              </li>
            );
          }
          const headingId = `${baseId}-${entry.id}`;
          return (
            <li key={entry.id} className="pt-1.5 first:pt-0">
              <p
                id={headingId}
                className="flex items-center gap-3 px-3 pb-1 pt-1 text-xs font-semibold uppercase tracking-wider text-muted-foreground"
              >
                <Icon name={entry.icon} className="size-[1.125rem]" />
                <span className="min-w-0">{t(`menu.groups.${entry.id}`)}</span>
              </p>
              <ul role="list" aria-labelledby={headingId} className="ml-[1.3rem] grid gap-0.5 border-l pl-2">
                {entry.items.map((item) => link(item, true))}
              </ul>
            </li>
          );
        })}
      </ul>
    </LinkArea>
  );
}
