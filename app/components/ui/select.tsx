import * as React from "react";

import { cn } from "../../lib/utils";
import { controlClassName } from "./input";

export interface SelectProps
  extends React.SelectHTMLAttributes<HTMLSelectElement> {
  /** Class for the wrapping element (width/layout); `className` styles the select. */
  wrapperClassName?: string;
}

/**
 * A styled *native* `<select>` — works without JS, keeps the platform picker
 * on phones, and posts with the form. Pass `<option>`s as children.
 */
export const Select = React.forwardRef<HTMLSelectElement, SelectProps>(
  ({ className, wrapperClassName, multiple, size, ...props }, ref) => {
    const isListBox = Boolean(multiple) || (size !== undefined && size > 1);
    return (
      <div className={cn("relative w-full", wrapperClassName)}>
        <select
          ref={ref}
          multiple={multiple}
          size={size}
          className={cn(
            controlClassName,
            isListBox ? "h-auto" : "appearance-none pr-10",
            className,
          )}
          {...props}
        />
        {isListBox ? null : (
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            fill="currentColor"
            className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
          >
            <path
              fillRule="evenodd"
              d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z"
              clipRule="evenodd"
            />
          </svg>
        )}
      </div>
    );
  },
);
Select.displayName = "Select";
