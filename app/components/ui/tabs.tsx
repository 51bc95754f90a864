import * as React from "react";
import { Link, type LinkProps } from "@remix-run/react";

import { cn } from "../../lib/utils";

/*
 * Link-based tabs: every tab is a URL (`/sites/1/assets`, `?tab=history`), so
 * they work without JS, can be bookmarked and keep Back working. The route
 * decides which one is `active` (e.g. from `useLocation()` or loader data).
 *
 * Deliberately NOT role="tablist"/"tab": these are navigation links, so they
 * are exposed as a labelled <nav> with aria-current="page" on the active one.
 */

export interface TabsProps extends React.HTMLAttributes<HTMLElement> {
  /** Accessible name of the navigation, e.g. "Asset sections". */
  label: string;
}

export function Tabs({ label, className, children, ...props }: TabsProps) {
  return (
    // min-w-0: in a grid or flex column the tab row scrolls sideways instead of widening the page.
    <nav aria-label={label} className={cn("w-full min-w-0", className)} {...props}>
      <ul className="flex w-full gap-1 overflow-x-auto border-b">{children}</ul>
    </nav>
  );
}

export interface TabLinkProps extends LinkProps {
  active?: boolean;
}

export const TabLink = React.forwardRef<HTMLAnchorElement, TabLinkProps>(
  ({ active = false, className, prefetch = "intent", ...props }, ref) => (
    <li className="shrink-0">
      <Link
        ref={ref}
        prefetch={prefetch}
        aria-current={active ? "page" : undefined}
        data-active={active ? "" : undefined}
        className={cn(
          "-mb-px inline-flex h-11 items-center whitespace-nowrap border-b-2 border-transparent px-3 text-sm font-medium text-muted-foreground transition-colors",
          "hover:border-input hover:text-foreground",
          "focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring",
          active && "border-primary text-foreground hover:border-primary",
          className,
        )}
        {...props}
      />
    </li>
  ),
);
TabLink.displayName = "TabLink";

/** A screen's tabs as links: one per entry of `tabs`, the one whose key is `active` marked current. */
export function TabLinks<K extends string>({ label, tabs, active, preventScrollReset }: { label: string; tabs: readonly { key: K; to: string; label: string }[]; active: K; preventScrollReset?: boolean }) {
  return (
    <Tabs label={label}>
      {tabs.map((tab) => (
        <TabLink key={tab.key} to={tab.to} active={tab.key === active} preventScrollReset={preventScrollReset}>
          {tab.label}
        </TabLink>
      ))}
    </Tabs>
  );
}
