import { useSyncExternalStore } from "react";

const noopSubscribe = () => () => {};

/**
 * false on the server and during hydration, true once JavaScript runs: for controls that only work
 * with JavaScript (a button that opens a dialog in the page instead of following its link).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
}
