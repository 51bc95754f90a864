import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";

/** User status (SPEC.md section 3): inactive (not yet validated) 1, active 2, disabled 3. */
export function UserStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation("users");
  const variant = status === 2 ? "success" : status === 3 ? "destructive" : "warning";
  return <Badge variant={variant}>{t(`status.${status}`)}</Badge>;
}
