import { useEffect, useRef, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Toaster, type ToastData } from "~/components/ui/toast";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * One stack of toasts per page. The root renders it (`ToastStack`) with the flash toast of a redirect;
 * anything else that toasts (the bell's live notifications, a list's refused changes) hands its toasts
 * to it with `PageToasts`, so they queue in one place instead of being drawn over each other. Before
 * JavaScript runs (and without it), `PageToasts` draws its own: a page without JavaScript has at most
 * one source at a time (a redirect's flash, or a form's refusal), and no live notifications.
 */
const EMPTY: readonly ToastData[] = [];
const sources = new Map<symbol, readonly ToastData[]>();
const listeners = new Set<() => void>();
let snapshot: readonly ToastData[] = EMPTY;

function publish() {
  snapshot = [...sources.values()].flat();
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The toasts with their screen-reader texts (type prefix, close button) in the page's language. */
function LocalizedToaster({ toasts }: { toasts: readonly ToastData[] }) {
  const { t } = useTranslation("common");
  return (
    <Toaster
      toasts={toasts}
      closeLabel={t("toast.dismiss")}
      typeLabels={{ success: t("toast.type.success"), error: t("toast.type.error"), info: t("toast.type.info") }}
    />
  );
}

/** The page's one stack (root.tsx): always mounted, so its live region exists before toasts arrive. */
export function ToastStack({ flash }: { flash: readonly ToastData[] }) {
  const hydrated = useHydrated();
  const others = useSyncExternalStore(subscribe, () => snapshot, () => EMPTY);
  return <LocalizedToaster toasts={hydrated && others.length ? [...flash, ...others] : flash} />;
}

/** A screen's own toasts, shown in the page's one stack once JavaScript runs, in place before. */
export function PageToasts({ toasts }: { toasts: readonly ToastData[] }) {
  const hydrated = useHydrated();
  const key = useRef(Symbol("toasts"));
  useEffect(() => {
    if (!hydrated || sources.get(key.current) === toasts) return;
    sources.set(key.current, toasts);
    publish();
  }, [hydrated, toasts]);
  useEffect(() => {
    const id = key.current;
    return () => {
      if (sources.delete(id)) publish();
    };
  }, []);
  return hydrated || toasts.length === 0 ? null : <LocalizedToaster toasts={toasts} />;
}
