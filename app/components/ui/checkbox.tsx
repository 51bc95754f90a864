import * as React from "react";

import { cn } from "../../lib/utils";

export type CheckboxProps = Omit<
  React.InputHTMLAttributes<HTMLInputElement>,
  "type"
>;

/**
 * Native `<input type="checkbox">` tinted with the brand colour via
 * `accent-color`, 24 px square (WCAG 2.5.8 target size). Posts `value` (default "on") when checked, like any
 * checkbox. Pair it with a `<Label htmlFor>` — the label enlarges the hit area.
 */
export const Checkbox = React.forwardRef<HTMLInputElement, CheckboxProps>(
  ({ className, ...props }, ref) => (
    <input
      ref={ref}
      type="checkbox"
      className={cn(
        "peer size-6 shrink-0 cursor-pointer rounded-sm border-input accent-primary",
        "focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background",
        "disabled:cursor-not-allowed disabled:opacity-50",
        "aria-invalid:outline-2 aria-invalid:outline-offset-1 aria-invalid:outline-destructive",
        className,
      )}
      {...props}
    />
  ),
);
Checkbox.displayName = "Checkbox";
