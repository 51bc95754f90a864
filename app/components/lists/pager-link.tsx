import type { ReactNode } from "react";
import { buttonVariants } from "~/components/ui/button";

/**
 * Previous / Next of a pager: a plain link that keeps the scroll position in the app (inside a
 * `LinkArea`; without JavaScript the browser follows it), or a disabled look-alike on the first or last
 * page. Shared by the list tables' pager and the dashboard's assignee table.
 */
export function PagerLink({ to, rel, children }: { to: string | null; rel: "prev" | "next"; children: ReactNode }) {
  const className = buttonVariants({ variant: "outline", size: "sm" });
  return to ? (
    <a href={to} rel={rel} data-prevent-scroll-reset className={className}>
      {children}
    </a>
  ) : (
    <span aria-disabled="true" className={className}>
      {children}
    </span>
  );
}
