import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";
import { helpAreaFor, helpUrl } from "~/modules/shell/help";
import { Icon } from "./icons";
import { headerButton } from "./styles";

/** The help link of the current area (HELP_BASE_URL + area), opening the help site in a new tab. */
export function HelpLink({ baseUrl, className }: { baseUrl: string | null; className?: string }) {
  const { t } = useTranslation("shell");
  const location = useLocation();
  const href = helpUrl(baseUrl, helpAreaFor(location.pathname, location.search));
  if (!href) return null;
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer noopener"
      aria-label={t("help.forArea")}
      title={t("help.label")}
      data-help-link
      className={cn(headerButton, className)}
    >
      <Icon name="help" />
    </a>
  );
}
