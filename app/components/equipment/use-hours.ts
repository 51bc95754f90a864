import { useTranslation } from "react-i18next";
import { numberFormat } from "~/lib/intl";

/** Hours with one decimal in the page's language, or "—" for none. */
export function useHours() {
  const { i18n, t } = useTranslation("equipment");
  const format = numberFormat(i18n.language || "en", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (hours: number | null) => (hours === null ? t("history.noValue") : t("history.hours", { hours: format.format(hours) }));
}
