/*
 * Toaster — flash messages rendered by the server.
 *
 * The root loader reads (and clears) the flash cookie and passes the toasts to
 * <Toaster toasts={…}/> in root.tsx. Without JS they are plain markup that
 * stays on the page. After hydration each toast gets a close button and fades
 * out after `duration` ms (paused while hovered or focused).
 *
 * Keep <Toaster> mounted on every page (even with no toasts) so the live
 * region exists before new toasts arrive on client-side navigations — that is
 * what makes screen readers announce them.
 */
import * as React from "react";

import { cn } from "../../lib/utils";
import { useHydrated } from "~/lib/use-hydrated";

export type ToastType = "success" | "error" | "info";

export interface ToastData {
  /** Unique per message (used as React key and to remember dismissals). */
  id: string;
  type: ToastType;
  title: string;
  description?: string;
  /** A link under the text (a live notification's incident). */
  link?: { href: string; label: string };
}

export interface ToasterProps {
  toasts?: readonly ToastData[];
  /** Auto-dismiss delay in ms once hydrated. `0` or `Infinity` disables it. */
  duration?: number;
  className?: string;
  /** Accessible name of the close button. */
  closeLabel?: string;
  /**
   * Screen-reader prefixes with their punctuation ("Success:", French "Succès :"), so the type is
   * not conveyed by colour alone. Pass them translated.
   */
  typeLabels?: Partial<Record<ToastType, string>>;
}

const FADE_MS = 300;

const defaultTypeLabels: Record<ToastType, string> = {
  success: "Success:",
  error: "Error:",
  info: "Information:",
};

const typeStyles: Record<ToastType, { accent: string; icon: string }> = {
  success: { accent: "border-l-success", icon: "text-success" },
  error: { accent: "border-l-destructive", icon: "text-destructive" },
  info: { accent: "border-l-primary", icon: "text-primary" },
};

export function Toaster({
  toasts = [],
  duration = 6000,
  className,
  closeLabel = "Dismiss notification",
  typeLabels,
}: ToasterProps) {
  const hydrated = useHydrated();
  const [dismissed, setDismissed] = React.useState<ReadonlySet<string>>(
    () => new Set(),
  );
  const dismiss = React.useCallback((id: string) => {
    setDismissed((prev) => new Set(prev).add(id));
  }, []);
  const labels = { ...defaultTypeLabels, ...typeLabels };
  const visible = toasts.filter((toast) => !dismissed.has(toast.id));

  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="false"
      className={cn(
        "pointer-events-none fixed inset-x-0 bottom-0 z-[100] p-4 sm:left-auto sm:right-4 sm:bottom-4 sm:w-full sm:max-w-sm sm:p-0",
        className,
      )}
    >
      <ol className="flex flex-col gap-2">
        {visible.map((toast) => (
          <ToastItem
            key={toast.id}
            toast={toast}
            typeLabel={labels[toast.type]}
            duration={duration}
            interactive={hydrated}
            closeLabel={closeLabel}
            onDismiss={dismiss}
          />
        ))}
      </ol>
    </div>
  );
}

interface ToastItemProps {
  toast: ToastData;
  typeLabel: string;
  duration: number;
  interactive: boolean;
  closeLabel: string;
  onDismiss: (id: string) => void;
}

function ToastItem({
  toast,
  typeLabel,
  duration,
  interactive,
  closeLabel,
  onDismiss,
}: ToastItemProps) {
  const [paused, setPaused] = React.useState(false);
  const [leaving, setLeaving] = React.useState(false);
  const autoDismiss = duration > 0 && Number.isFinite(duration);

  // Start fading after `duration` (restarts when un-paused).
  React.useEffect(() => {
    if (!autoDismiss || paused || leaving) return;
    const timer = window.setTimeout(() => setLeaving(true), duration);
    return () => window.clearTimeout(timer);
  }, [autoDismiss, paused, leaving, duration]);

  // Remove once the fade has finished.
  React.useEffect(() => {
    if (!leaving) return;
    const timer = window.setTimeout(() => onDismiss(toast.id), FADE_MS);
    return () => window.clearTimeout(timer);
  }, [leaving, onDismiss, toast.id]);

  const styles = typeStyles[toast.type];

  return (
    <li
      data-type={toast.type}
      className={cn(
        "pointer-events-auto flex items-start gap-3 rounded-lg border border-l-4 bg-card p-4 text-card-foreground shadow-lg",
        "motion-safe:transition-[opacity,translate] motion-safe:duration-300",
        styles.accent,
        leaving && "translate-y-2 opacity-0",
      )}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
          setPaused(false);
        }
      }}
    >
      <ToastIcon type={toast.type} className={cn("mt-0.5 size-5 shrink-0", styles.icon)} />
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="text-sm font-semibold leading-tight">
          <span className="sr-only">{typeLabel} </span>
          {toast.type === "error" ? <span data-refusal="">{toast.title}</span> : toast.title}
        </p>
        {toast.description ? (
          <p className="text-sm text-muted-foreground">{toast.description}</p>
        ) : null}
        {toast.link ? (
          <a href={toast.link.href} className="text-sm font-medium text-primary underline underline-offset-4 hover:no-underline">
            {toast.link.label}
          </a>
        ) : null}
      </div>
      {interactive ? (
        <button
          type="button"
          aria-label={closeLabel}
          onClick={() => onDismiss(toast.id)}
          className={cn(
            "-mr-2 -mt-2 inline-flex size-9 shrink-0 items-center justify-center rounded-md text-muted-foreground transition-colors",
            "hover:bg-muted hover:text-foreground",
            "focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring",
          )}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeLinecap="round"
            className="size-4"
          >
            <path d="M18 6 6 18M6 6l12 12" />
          </svg>
        </button>
      ) : null}
    </li>
  );
}

function ToastIcon({ type, className }: { type: ToastType; className?: string }) {
  const common = {
    "aria-hidden": true,
    viewBox: "0 0 24 24",
    fill: "none",
    stroke: "currentColor",
    strokeWidth: 2,
    strokeLinecap: "round" as const,
    strokeLinejoin: "round" as const,
    className,
  };
  if (type === "success") {
    return (
      <svg {...common}>
        <circle cx="12" cy="12" r="9" />
        <path d="m8 12.5 2.5 2.5L16 9.5" />
      </svg>
    );
  }
  if (type === "error") {
    return (
      <svg {...common}>
        <circle cx="12" cy="12" r="9" />
        <path d="M12 7.5v5M12 16.5h.01" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 7.5h.01" />
    </svg>
  );
}
