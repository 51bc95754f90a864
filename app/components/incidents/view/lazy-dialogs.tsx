import { lazy, Suspense, type ComponentProps } from "react";
import { useLocation } from "@remix-run/react";

/**
 * The incident view's action dialogs (status, assign, priority, tags, title, description, duplicate) load
 * when one opens (`?dialog=<name>`), or when the pointer or focus reaches a trigger: the view itself does
 * not carry their forms. The server renders an open dialog whole (entry.server.tsx waits for it), so
 * without JavaScript nothing changes; the Suspense boundary lets a page opened with a dialog hydrate while
 * the code is on its way, keeping the server's dialog in place.
 */
const loadDialogs = () => import("./incident-dialogs");
const Dialogs = lazy(() => loadDialogs().then((m) => ({ default: m.IncidentDialogs })));

export const preloadIncidentDialogs = () => void loadDialogs().catch(() => undefined);

/** The dialogs that `IncidentDialogs` holds; the view's other dialogs (deleting a comment, a file, work) are small and stay. */
const ACTION_DIALOGS = new Set(["status", "assign", "priority", "tags", "title", "description", "duplicate"]);

export function LazyIncidentDialogs(props: ComponentProps<typeof Dialogs>) {
  const { search } = useLocation();
  const dialog = new URLSearchParams(search).get("dialog");
  if (!dialog || !ACTION_DIALOGS.has(dialog)) return null;
  return (
    <Suspense fallback={null}>
      <Dialogs {...props} />
    </Suspense>
  );
}
