import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";
import { Icon } from "./icons";
import { LanguageSwitch } from "./language-switch";
import { MainNav } from "./main-nav";
import type { MenuEntry } from "./menu";
import { headerButton } from "./styles";
import { useDetailsMenu } from "./use-details-menu";

/**
 * The menu on narrow screens: a native `<details>` whose summary is the header's menu button, so it
 * opens and closes without JavaScript; with JavaScript it also closes after navigating.
 */
export function MobileMenu({ menu, className }: { menu: MenuEntry[]; className?: string }) {
  const { t } = useTranslation("shell");
  const ref = useDetailsMenu();
  return (
    <details ref={ref} className={cn("group", className)} data-mobile-menu>
      <summary className={cn(headerButton, "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        <Icon name="menu" className="group-open:hidden" />
        <Icon name="close" className="hidden group-open:block" />
        <span className="sr-only">{t("menu.open")}</span>
      </summary>
      <div className="fixed inset-x-0 bottom-0 top-14 z-40 flex flex-col overflow-y-auto border-t bg-background text-foreground shadow-xl">
        <MainNav menu={menu} className="flex-1 p-3" />
        <div className="flex items-center justify-between gap-3 border-t px-4 py-3">
          <LanguageSwitch />
        </div>
      </div>
    </details>
  );
}
