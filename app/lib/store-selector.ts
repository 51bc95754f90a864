import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";

/**
 * `useSyncExternalStoreWithSelector` for TanStack Table's store in the browser's build (vite.config.ts
 * resolves the table's import of `use-sync-external-store/shim/with-selector` here), so that the table's
 * chunk does not share a file with the dashboard's charts, which keep the package's copy. It reads the
 * store through React's own hook and keeps a selection while `isEqual` says it has not changed, so that a
 * store read in every render does not re-render for ever.
 */
export function useSyncExternalStoreWithSelector<S, T>(
  subscribe: (onChange: () => void) => () => void,
  getSnapshot: () => S,
  getServerSnapshot: (() => S) | null | undefined,
  selector: (snapshot: S) => T,
  isEqual?: (a: T, b: T) => boolean,
): T {
  const committed = useRef<{ value: T } | null>(null);
  const select = useMemo(() => {
    let last: { snapshot: S; selection: T } | null = null;
    return (snapshot: S): T => {
      if (last && Object.is(last.snapshot, snapshot)) return last.selection;
      let selection = selector(snapshot);
      const previous = last ?? (committed.current ? { selection: committed.current.value } : null);
      if (previous && isEqual?.(previous.selection, selection)) selection = previous.selection;
      last = { snapshot, selection };
      return selection;
    };
  }, [selector, isEqual]);
  const value = useSyncExternalStore(
    subscribe,
    () => select(getSnapshot()),
    getServerSnapshot ? () => select(getServerSnapshot()) : undefined,
  );
  useEffect(() => {
    committed.current = { value };
  }, [value]);
  return value;
}
