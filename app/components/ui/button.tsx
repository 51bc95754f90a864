import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";

import { cn } from "../../lib/utils";

/**
 * Class recipe shared by `<Button>` and anything that should *look* like a
 * button, e.g. `<Link className={buttonVariants({ variant: "outline" })}>`.
 *
 * The default size is 44px tall on phones (touch target) and 40px from `sm`.
 */
export const buttonVariants = cva(
  // The long common part is the stylesheet's `.ui-btn` (app/styles/tailwind.css); the icon rules stay utilities.
  "ui-btn [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground hover:bg-primary-hover",
        secondary: "bg-secondary text-secondary-foreground hover:bg-secondary/70",
        outline:
          "border border-input bg-background text-foreground hover:bg-muted",
        ghost: "text-foreground hover:bg-muted",
        destructive:
          "bg-destructive text-destructive-foreground hover:bg-destructive/90",
        link: "text-primary underline-offset-4 hover:underline",
      },
      size: {
        sm: "h-9 px-3 text-sm",
        default: "h-11 px-4 py-2 sm:h-10",
        lg: "h-12 px-6 text-base sm:h-11",
        icon: "size-11 sm:size-10",
      },
    },
    defaultVariants: {
      variant: "default",
      size: "default",
    },
  },
);

export type ButtonVariantProps = VariantProps<typeof buttonVariants>;

export interface ButtonProps
  extends React.ButtonHTMLAttributes<HTMLButtonElement>,
    ButtonVariantProps {}

/**
 * Native `<button>`. No default `type` is forced: inside a `<form>` it submits
 * (what plain HTML form posts need); pass `type="button"` otherwise.
 */
export const Button = React.forwardRef<HTMLButtonElement, ButtonProps>(
  ({ className, variant, size, ...props }, ref) => (
    <button
      ref={ref}
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  ),
);
Button.displayName = "Button";
