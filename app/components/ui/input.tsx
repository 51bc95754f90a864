import * as React from "react";

import { cn } from "../../lib/utils";

/** Shared look of single-line text controls (input, native select). */
/** The look of a text input, select or textarea: the stylesheet's `.ui-control` (app/styles/tailwind.css). */
export const controlClassName = "ui-control";

export type InputProps = React.InputHTMLAttributes<HTMLInputElement>;

export const Input = React.forwardRef<HTMLInputElement, InputProps>(
  ({ className, type = "text", ...props }, ref) => (
    <input
      ref={ref}
      type={type}
      className={cn(
        controlClassName,
        "file:mr-3 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground",
        className,
      )}
      {...props}
    />
  ),
);
Input.displayName = "Input";
