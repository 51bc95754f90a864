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
      // A single-choice select's chevron is drawn by the wrapper (`.ui-select-chevron`).
      <div className={cn("relative w-full", !isListBox && "ui-select-chevron", wrapperClassName)}>
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
      </div>
    );
  },
);
Select.displayName = "Select";
