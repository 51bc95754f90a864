import { createContext, createElement, type ReactNode, useContext, useEffect, useMemo, useState } from "react";

/**
 * The browser's react-i18next (decision 033, amendment): what the pages use of it (`useTranslation`,
 * `I18nextProvider`, `initReactI18next`) in a small fraction of its size. The browser
 * build resolves `react-i18next` to this module (vite.config.ts); the server and the tests keep
 * react-i18next. It follows react-i18next 15 where the pages can tell: `t` is the instance's
 * `getFixedT(lng, first namespace, keyPrefix)` (other namespaces through `ns:key`), and a new `t` after a
 * language change re-renders the component. The texts are all loaded before hydration (entry.client.tsx),
 * so it is always ready and never suspends. app/lib/react-translation.test.tsx renders the same
 * components with both.
 */
type Translate = (key: string | readonly string[], ...rest: unknown[]) => string;
interface Instance {
  language: string;
  options: { defaultNS?: string | string[] };
  getFixedT(lng: string | null, ns: string | null, keyPrefix?: string): Translate;
  on(event: string, listener: () => void): void;
  off(event: string, listener: () => void): void;
}

const Context = createContext<{ i18n: Instance } | undefined>(undefined);
let registered: Instance | undefined;

/** `i18n.use(initReactI18next)`: the instance the hook falls back to outside a provider. */
export const initReactI18next = {
  type: "3rdParty" as const,
  init(instance: Instance) {
    registered = instance;
  },
};

export function I18nextProvider({ i18n, children }: { i18n: Instance; children?: ReactNode }) {
  const value = useMemo(() => ({ i18n }), [i18n]);
  return createElement(Context.Provider, { value }, children);
}

export function useTranslation(ns?: string | readonly string[], props: { keyPrefix?: string; lng?: string; i18n?: Instance } = {}) {
  const fromContext = useContext(Context)?.i18n;
  const i18n = (props.i18n ?? fromContext ?? registered) as Instance;
  const requested = ns ?? i18n.options.defaultNS ?? "translation";
  const namespace = (typeof requested === "string" ? requested : requested[0]) ?? "translation";
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    const changed = () => setChanges((n) => n + 1);
    i18n.on("languageChanged", changed);
    return () => i18n.off("languageChanged", changed);
  }, [i18n]);
  // A new function after each language change, as react-i18next gives, so that memos keyed on `t` follow.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const t = useMemo(() => i18n.getFixedT(props.lng || null, namespace, props.keyPrefix), [i18n, props.lng, namespace, props.keyPrefix, changes]);
  const result = [t, i18n, true] as unknown as [typeof t, Instance, boolean] & { t: typeof t; i18n: Instance; ready: boolean };
  result.t = t;
  result.i18n = i18n;
  result.ready = true;
  return result;
}
