/*
 * Dialog — URL-driven, works with JavaScript OFF.
 *
 * Native <dialog>.showModal() and Radix portals need JS to open, so instead the
 * open state lives in the URL and the server renders the dialog:
 *
 *   1. Pick a URL for the open dialog: either a search param on the current
 *      page (`/assets?dialog=new-asset`) or a nested route rendered through the
 *      parent's <Outlet/> (`/assets/42/delete`).
 *   2. The trigger is a plain link to that URL: `<DialogTrigger to=…>`.
 *   3. The route reads the URL and renders `<Dialog open={…} closeTo=…>`.
 *      When `open` is false nothing is rendered.
 *   4. Closing = navigating to `closeTo`: the ✕ button and the backdrop are
 *      links; with JS, Escape navigates there too.
 *   5. Forms inside are ordinary `<Form method="post">`. On success the action
 *      redirects to the close URL; on validation errors it returns them and the
 *      page (still at the open URL) re-renders the dialog with the errors.
 *
 *   export default function Assets() {
 *     const dialog = useUrlDialog("new-asset"); // ?dialog=new-asset
 *     return (
 *       <>
 *         <DialogTrigger to={dialog.openTo}>New asset</DialogTrigger>
 *         <Dialog open={dialog.open} closeTo={dialog.closeTo} title="New asset">
 *           <Form method="post">
 *             …fields…
 *             <DialogFooter>
 *               <Link to={dialog.closeTo} className={buttonVariants({ variant: "outline" })}>Cancel</Link>
 *               <Button type="submit">Save</Button>
 *             </DialogFooter>
 *           </Form>
 *         </Dialog>
 *       </>
 *     );
 *   }
 *
 * With JS (after hydration) it is driven by the same URL, plus: focus moves
 * into the panel, Tab stays inside, Escape closes, the page behind does not
 * scroll, and focus returns to the trigger on close.
 * Without JS focus cannot be trapped; render the dialog early in the page
 * (before the main content) so it comes first in the tab order.
 */
import * as React from "react";
import { Link, useLocation, useNavigate, type LinkProps } from "@remix-run/react";

import { cn } from "../../lib/utils";
import { buttonVariants, type ButtonVariantProps } from "./button";

/* -------------------------------------------------------------------------- */
/* URL helpers                                                                 */
/* -------------------------------------------------------------------------- */

/**
 * Absolute href for the current page with the dialog search param set to
 * `name`, or removed when `name` is null. Other search params are kept.
 */
export function dialogHref(
  location: { pathname: string; search: string },
  name: string | null,
  param = "dialog",
): string {
  const params = new URLSearchParams(location.search);
  if (name === null) params.delete(param);
  else params.set(param, name);
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}

/** `?dialog=<name>` state of the current URL: `{ open, openTo, closeTo }`. */
export function useUrlDialog(name: string, param = "dialog") {
  const location = useLocation();
  const open = new URLSearchParams(location.search).get(param) === name;
  return {
    open,
    openTo: dialogHref(location, name, param),
    closeTo: dialogHref(location, null, param),
  };
}

/* -------------------------------------------------------------------------- */
/* Trigger                                                                     */
/* -------------------------------------------------------------------------- */

export interface DialogTriggerProps extends LinkProps, ButtonVariantProps {}

/** A link to the dialog's URL, styled as a button (pass `variant="link"` for inline). */
export const DialogTrigger = React.forwardRef<
  HTMLAnchorElement,
  DialogTriggerProps
>(({ className, variant, size, preventScrollReset = true, ...props }, ref) => (
  <Link
    ref={ref}
    preventScrollReset={preventScrollReset}
    aria-haspopup="dialog"
    className={cn(buttonVariants({ variant, size }), className)}
    {...props}
  />
));
DialogTrigger.displayName = "DialogTrigger";

/* -------------------------------------------------------------------------- */
/* Dialog                                                                      */
/* -------------------------------------------------------------------------- */

const sizeClasses = {
  sm: "sm:max-w-sm",
  md: "sm:max-w-lg",
  lg: "sm:max-w-2xl",
} as const;

export interface DialogProps
  extends Omit<React.HTMLAttributes<HTMLDivElement>, "title"> {
  /** Whether the dialog is shown (decided by the route / URL). */
  open: boolean;
  /** Where closing navigates to (the page without the dialog). */
  closeTo: LinkProps["to"];
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Rendered in a bottom bar. For form buttons, prefer `<DialogFooter>` inside the form. */
  footer?: React.ReactNode;
  /** Accessible name of the close (✕) link. */
  closeLabel?: string;
  size?: keyof typeof sizeClasses;
}

export function Dialog({ open, ...props }: DialogProps) {
  if (!open) return null;
  return <OpenDialog {...props} />;
}

const FOCUSABLE = [
  "a[href]",
  "area[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "iframe",
  "summary",
  "[contenteditable='true']",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

function OpenDialog({
  closeTo,
  title,
  description,
  footer,
  closeLabel = "Close",
  size = "md",
  id,
  className,
  children,
  onKeyDown,
  ...props
}: Omit<DialogProps, "open">) {
  const reactId = React.useId();
  const baseId = id ?? `dialog${reactId.replace(/:/g, "")}`;
  const titleId = `${baseId}-title`;
  const descriptionId = `${baseId}-description`;
  const panelRef = React.useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  // JS-only enhancements; never run on the server.
  React.useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const previouslyFocused =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!panel.contains(document.activeElement)) {
      const preferred = panel.querySelector<HTMLElement>("[autofocus],[data-autofocus]");
      (preferred ?? panel).focus({ preventScroll: true });
    }
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.body.style.overflow = previousOverflow;
      if (
        previouslyFocused &&
        !panel.contains(previouslyFocused) &&
        previouslyFocused.isConnected
      ) {
        previouslyFocused.focus({ preventScroll: true });
      }
    };
  }, []);

  function handleKeyDown(event: React.KeyboardEvent<HTMLDivElement>) {
    onKeyDown?.(event);
    if (event.defaultPrevented) return;
    if (event.key === "Escape") {
      event.preventDefault();
      navigate(closeTo, { preventScrollReset: true });
      return;
    }
    if (event.key !== "Tab") return;
    const panel = panelRef.current;
    if (!panel) return;
    const focusables = Array.from(
      panel.querySelectorAll<HTMLElement>(FOCUSABLE),
    ).filter((el) => el.getClientRects().length > 0);
    if (focusables.length === 0) {
      event.preventDefault();
      return;
    }
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panel)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="fixed inset-0 z-[100] flex items-end justify-center sm:items-center sm:p-4">
      {/* Backdrop: clicking it closes the dialog, no JS needed. Hidden from AT
          and the tab order; the ✕ link is the accessible close control. */}
      <Link
        to={closeTo}
        preventScrollReset
        tabIndex={-1}
        aria-hidden="true"
        className="absolute inset-0 cursor-default bg-black/50"
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        id={baseId}
        tabIndex={-1}
        onKeyDown={handleKeyDown}
        className={cn(
          "relative flex max-h-[90dvh] w-full flex-col overflow-hidden rounded-t-xl border bg-card text-card-foreground shadow-xl focus:outline-hidden sm:rounded-xl",
          sizeClasses[size],
          className,
        )}
        {...props}
      >
        <div className="flex items-start gap-4 border-b px-4 py-4 sm:px-6">
          <div className="grid min-w-0 flex-1 gap-1">
            <h2 id={titleId} className="text-lg font-semibold leading-tight">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="text-sm text-muted-foreground">
                {description}
              </p>
            ) : null}
          </div>
          <Link
            to={closeTo}
            preventScrollReset
            aria-label={closeLabel}
            className={cn(
              buttonVariants({ variant: "ghost", size: "icon" }),
              "-mr-2 -mt-2",
            )}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
              strokeLinecap="round"
            >
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </Link>
        </div>
        <div className="flex-1 overflow-y-auto px-4 py-4 sm:px-6">{children}</div>
        {footer ? (
          <DialogFooter className="mt-0 border-t px-4 py-3 sm:px-6">
            {footer}
          </DialogFooter>
        ) : null}
      </div>
    </div>
  );
}

export type DialogFooterProps = React.HTMLAttributes<HTMLDivElement>;

/** Button row: stacked (primary on top) on phones, right-aligned from `sm`. */
export function DialogFooter({ className, ...props }: DialogFooterProps) {
  return (
    <div
      className={cn(
        "mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end",
        className,
      )}
      {...props}
    />
  );
}
