import { useNavigate } from "@remix-run/react";
import type { ComponentPropsWithoutRef, ElementType, MouseEvent } from "react";

/** What `inAppTarget` reads of a click (a React or DOM mouse event). */
export interface ClickLike {
  defaultPrevented: boolean;
  button: number;
  metaKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  target: unknown;
  currentTarget: { contains(node: unknown): boolean };
}

interface AnchorLike {
  href: string;
  target: string;
  hasAttribute(name: string): boolean;
}

/**
 * Where a click on a link inside a `LinkArea` should take the app, or null when the browser should follow
 * it itself: another button or a modifier key (new tab, new window, download), a `target` or `download`
 * attribute, another site, or no link at all.
 */
export function inAppTarget(event: ClickLike, here: string): { to: string; preventScrollReset: boolean } | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const target = event.target as { closest?: (selector: string) => AnchorLike | null } | null;
  const anchor = typeof target?.closest === "function" ? target.closest("a[href]") : null;
  if (!anchor || !event.currentTarget.contains(anchor)) return null;
  if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download") || anchor.hasAttribute("data-reload-document")) return null;
  const base = new URL(here);
  const url = new URL(anchor.href, base);
  if (url.origin !== base.origin) return null;
  return { to: `${url.pathname}${url.search}${url.hash}`, preventScrollReset: anchor.hasAttribute("data-prevent-scroll-reset") };
}

type LinkAreaProps<T extends ElementType> = { as?: T } & ComponentPropsWithoutRef<T>;

/**
 * A container (a `div` unless `as` says otherwise) whose plain `<a href>` descendants navigate in the app,
 * as `<Link>`s would (decision 021): for links by the dozen or hundred (the menu, a table's cells, sort
 * headers and pager, a board's cards, a dashboard's counts). A `<Link>` resolves its path against the route
 * tree and subscribes to the router while rendering; the dashboard's 300 counts cost a sixth of its server
 * time that way. Without JavaScript the browser follows the anchors, as it does for `<Link>`.
 * `data-prevent-scroll-reset` on an anchor keeps the scroll position, as `preventScrollReset` does;
 * `data-reload-document` leaves it to the browser, as `reloadDocument` does.
 */
export function LinkArea<T extends ElementType = "div">({ as, onClick, ...props }: LinkAreaProps<T>) {
  const navigate = useNavigate();
  const Element: ElementType = as ?? "div";
  return (
    <Element
      {...props}
      onClick={(event: MouseEvent<HTMLElement>) => {
        onClick?.(event);
        const go = inAppTarget(event, window.location.href);
        if (!go) return;
        event.preventDefault();
        navigate(go.to, { preventScrollReset: go.preventScrollReset });
      }}
    />
  );
}
