import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Enhances a native `<details>` used as a menu (it opens and closes without JavaScript). With
 * JavaScript on, it also closes after a client-side navigation, on a click outside it, and on
 * Escape (focus goes back to its `<summary>`).
 */
export function useDetailsMenu<T extends HTMLDetailsElement = HTMLDetailsElement>() {
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
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    details.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      details.removeEventListener("keydown", onKeyDown);
    };
  }, []);

  return ref;
}
