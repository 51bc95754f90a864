/**
 * `use-sync-external-store/shim` in the browser's build (vite.config.ts): React 18 has the hook, so the
 * shim's copy for React 16 and 17 (which TanStack Table's store and the charts' Redux load) is left out.
 */
export { useSyncExternalStore } from "react";
