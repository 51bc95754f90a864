import * as React from "react";

import { cn } from "../../lib/utils";

export type LabelProps = React.LabelHTMLAttributes<HTMLLabelElement>;

export const Label = React.forwardRef<HTMLLabelElement, LabelProps>(
  ({ className, ...props }, ref) => (
    <label
      ref={ref}
      // The stylesheet's .ui-label (app/styles/tailwind.css); a utility passed as `className` wins.
      className={cn("ui-label", className)}
      {...props}
    />
  ),
);
Label.displayName = "Label";
