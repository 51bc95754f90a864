import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";
import { Icon } from "./icons";
import { LanguageSwitch } from "./language-switch";
import { headerButton } from "./styles";
import { useDetailsMenu } from "./use-details-menu";

/**
 * The menu button on narrow screens: a native `<details>` whose summary is the header's menu button, so it
 * opens and closes without JavaScript. The menu itself is the sidebar's (`menuId`), rendered once and shown
 * as a panel under the header while this is open (the `.shell-menu` rule in tailwind.css, decision 009);
 * what is inside the `<details>` is the panel's language bar. With JavaScript it also closes after
 * navigating, on a click outside the button and the panel, and on Escape.
 */
export function MobileMenu({ menuId, className }: { menuId: string; className?: string }) {
  const { t } = useTranslation("shell");
  const ref = useDetailsMenu({ panelId: menuId });
  return (
    <details ref={ref} className={cn("group", className)} data-mobile-menu>
      <summary aria-controls={menuId} className={cn(headerButton, "cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        <Icon name="menu" className="group-open:hidden" />
        <Icon name="close" className="hidden group-open:block" />
        <span className="sr-only">{t("menu.open")}</span>
      </summary>
      <div className="fixed inset-x-0 bottom-0 z-50 flex items-center gap-3 border-t bg-background px-4 py-3 text-foreground">
        <LanguageSwitch />
      </div>
    </details>
  );
}
