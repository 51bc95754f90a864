import * as React from "react";

import { cn } from "../../lib/utils";

export type TextareaProps = React.TextareaHTMLAttributes<HTMLTextAreaElement>;

export const Textarea = React.forwardRef<HTMLTextAreaElement, TextareaProps>(
  ({ className, rows = 4, ...props }, ref) => (
    <textarea
      ref={ref}
      rows={rows}
      // The look of the other controls (`.ui-control`), as tall as its rows.
      className={cn("ui-control h-auto min-h-24", className)}
      {...props}
    />
  ),
);
Textarea.displayName = "Textarea";
