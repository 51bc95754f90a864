import * as React from "react";

import { cn } from "../../lib/utils";
import { Label } from "./label";

/** `id` of the error text rendered by `<Field htmlFor={id}>`. */
export const fieldErrorId = (htmlFor: string) => `${htmlFor}-error`;
/** `id` of the description rendered by `<Field htmlFor={id}>`. */
export const fieldDescriptionId = (htmlFor: string) => `${htmlFor}-description`;

/**
 * ARIA wiring for the control inside a `<Field>` when you are not using
 * conform's `getInputProps` (which produces the same ids:
 * `${field.id}-error` / `${field.id}-description`).
 *
 *   <Input {...fieldControlProps("email", { errors, description: true })} name="email" />
 */
export function fieldControlProps(
  htmlFor: string,
  opts: { errors?: string[] | null; description?: boolean } = {},
): {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
} {
  const hasErrors = Boolean(opts.errors && opts.errors.length > 0);
  const describedBy = [
    opts.description ? fieldDescriptionId(htmlFor) : null,
    hasErrors ? fieldErrorId(htmlFor) : null,
  ].filter(Boolean);
  return {
    id: htmlFor,
    "aria-invalid": hasErrors ? true : undefined,
    "aria-describedby": describedBy.length ? describedBy.join(" ") : undefined,
  };
}

export interface FieldProps
  extends Omit<React.HTMLAttributes<HTMLDivElement>, "children"> {
  label: React.ReactNode;
  /** `id` of the control; also the prefix of the description/error ids. */
  htmlFor: string;
  errors?: string[] | null;
  description?: React.ReactNode;
  /** Shows a visual "*" (the control itself should carry `required`). */
  required?: boolean;
  children: React.ReactNode;
}

/**
 * Label + control + optional description + error text.
 *
 * The control is passed as `children` and must have `id={htmlFor}`; point its
 * `aria-describedby` at `${htmlFor}-description` / `${htmlFor}-error`
 * (see `fieldControlProps`, or conform's `getInputProps`).
 */
export function Field({
  label,
  htmlFor,
  errors,
  description,
  required,
  className,
  children,
  ...props
}: FieldProps) {
  const errorList = (errors ?? []).filter(Boolean);
  return (
    <div className={cn("grid gap-2", className)} {...props}>
      <Label htmlFor={htmlFor}>
        {label}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-destructive">
            *
          </span>
        ) : null}
      </Label>
      {children}
      {description ? (
        <p
          id={fieldDescriptionId(htmlFor)}
          className="text-sm text-muted-foreground"
        >
          {description}
        </p>
      ) : null}
      {errorList.length > 0 ? (
        <div
          id={fieldErrorId(htmlFor)}
          className="grid gap-1 text-sm font-medium text-destructive"
        >
          {errorList.map((error, i) => (
            // data-refusal: the service worker reads it from a refused replay (app/lib/offline-rules.ts).
            <p key={`${i}-${error}`} data-refusal="">
              {error}
            </p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
