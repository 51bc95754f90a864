import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Enhances a native `<details>` used as a menu (it opens and closes without JavaScript). With
 * JavaScript on, it also closes after a client-side navigation, on a click outside it (and outside the
 * element `panelId` names, a panel it shows elsewhere in the page), and on Escape inside either (focus
 * goes back to its `<summary>`).
 */
export function useDetailsMenu<T extends HTMLDetailsElement = HTMLDetailsElement>({ panelId }: { panelId?: string } = {}) {
  const ref = useRef<T>(null);
  const location = useLocation();
  const shownKey = useRef(location.key);

  // Close after a navigation, not on hydration: a menu opened before the page hydrated stays open.
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (ref.current) ref.current.open = false;
  }, [location.key]);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const within = (target: EventTarget | null) => {
      if (!(target instanceof Node)) return false;
      if (details.contains(target)) return true;
      const panel = panelId ? document.getElementById(panelId) : null;
      return Boolean(panel?.contains(target));
    };
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && !within(event.target)) details.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open || !within(event.target)) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [panelId]);

  return ref;
}
