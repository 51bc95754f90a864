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
  // Each part is one component class of the stylesheet (app/styles/tailwind.css): a button's markup
  // carries three short names instead of about 150 characters of utilities. A utility passed as
  // `className` still wins (the utilities layer comes after the components layer).
  "ui-btn",
  {
    variants: {
      variant: {
        default: "ui-btn-primary",
        secondary: "ui-btn-secondary",
        outline: "ui-btn-outline",
        ghost: "ui-btn-ghost",
        destructive: "ui-btn-destructive",
        link: "ui-btn-link",
      },
      size: {
        sm: "ui-btn-sm",
        default: "ui-btn-md",
        lg: "ui-btn-lg",
        icon: "ui-btn-icon",
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
