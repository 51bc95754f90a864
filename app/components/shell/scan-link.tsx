import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { cn } from "~/lib/utils";
import { Icon } from "./icons";
import { headerButton } from "./styles";

/** The header's "Scan a code" button: opens /scan, where the camera or a typed code opens a sticker's room or item. */
export function ScanLink({ className }: { className?: string }) {
  const { t } = useTranslation("shell");
  return (
    <Link to="/scan" aria-label={t("scan.open")} title={t("scan.open")} data-scan-link className={cn(headerButton, className)}>
      <Icon name="scan" />
    </Link>
  );
}
