import { useTranslation } from "react-i18next";
import { Toaster, type ToastData } from "~/components/ui/toast";

/** The flash toasts with their screen-reader texts (type prefix, close button) in the page's language. */
export function LocalizedToaster({ toasts }: { toasts: readonly ToastData[] }) {
  const { t } = useTranslation("common");
  return (
    <Toaster
      toasts={toasts}
      closeLabel={t("toast.dismiss")}
      typeLabels={{ success: t("toast.type.success"), error: t("toast.type.error"), info: t("toast.type.info") }}
    />
  );
}
