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
      // The look is the stylesheet's `.ui-checkbox` (app/styles/tailwind.css).
      className={cn("peer ui-checkbox", className)}
      {...props}
    />
  ),
);
Checkbox.displayName = "Checkbox";
