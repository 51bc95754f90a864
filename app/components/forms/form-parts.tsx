import { Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button, type ButtonProps, buttonVariants } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Checkbox, type CheckboxProps } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/utils";

/**
 * The way back from a screen to its list: one look everywhere, and a target at least 24 px high
 * (WCAG 2.5.8) however short its text.
 */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="inline-flex min-h-6 w-fit items-center gap-1 py-0.5 text-sm text-muted-foreground hover:text-foreground">
      <span aria-hidden="true">←</span>
      {children}
    </Link>
  );
}

/**
 * The frame of an add/update screen: a link back to the list, the title, an optional line below it
 * (e.g. the short id) and actions on the right (e.g. the archive button), then the form in a card.
 */
export function FormPage({
  title,
  backTo,
  backLabel,
  subtitle,
  actions,
  children,
}: {
  title: ReactNode;
  backTo: string;
  backLabel: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <BackLink to={backTo}>{backLabel}</BackLink>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {subtitle ? <p className="text-sm text-muted-foreground">{subtitle}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2 sm:shrink-0 sm:flex-nowrap [&>*]:flex-auto sm:[&>*]:flex-none">{actions}</div> : null}
      </div>
      <Card>
        <CardContent className="pt-4 sm:pt-6">{children}</CardContent>
      </Card>
    </div>
  );
}

/**
 * The submit button of one of the page's forms: disabled (and "Saving…") while that form, told by its
 * intent, is being sent. `postsIntent`: the button posts `intent=<intent>` itself (a form with other
 * submit intents, so no hidden `intent` input).
 */
export function SubmitButton({
  intent,
  postsIntent,
  children,
  className,
  variant,
}: {
  intent: string;
  postsIntent?: boolean;
  children: ReactNode;
  className?: string;
  variant?: "default" | "destructive";
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const { t } = useTranslation();
  return (
    <Button
      type="submit"
      name={postsIntent ? "intent" : undefined}
      value={postsIntent ? intent : undefined}
      variant={variant}
      disabled={busy}
      className={cn("w-full sm:w-auto", className)}
    >
      {busy ? t("actions.saving") : children}
    </Button>
  );
}

/** The button row at the end of a form: Cancel (a link back) and the submit button; stacked on phones. */
export function FormActions({
  intent,
  postsIntent,
  cancelTo,
  submitLabel,
  cancelLabel,
  className,
}: {
  intent: string;
  postsIntent?: boolean;
  cancelTo: string;
  submitLabel?: ReactNode;
  cancelLabel?: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={cn("flex flex-col-reverse gap-2 border-t pt-6 sm:flex-row sm:justify-end", className)}>
      <Link to={cancelTo} className={cn(buttonVariants({ variant: "outline" }), "w-full sm:w-auto")}>
        {cancelLabel ?? t("actions.cancel")}
      </Link>
      <SubmitButton intent={intent} postsIntent={postsIntent}>
        {submitLabel ?? t("actions.save")}
      </SubmitButton>
    </div>
  );
}

/**
 * The × button that removes a row of a list field (a tag, a link, an equipment item): give it the
 * list intent's props (`form.remove.getButtonProps(...)`) and an `aria-label` naming the row.
 */
export function RemoveRowButton({ className, ...props }: Omit<ButtonProps, "children" | "variant" | "size"> & { "aria-label": string }) {
  const { t } = useTranslation();
  return (
    <Button {...props} variant="outline" size="icon" title={t("actions.remove")} className={className}>
      <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
        <path d="M18 6 6 18M6 6l12 12" />
      </svg>
    </Button>
  );
}

/** A titled group of fields inside a form (a fieldset, so that screen readers announce the title). */
export function FormSection({
  title,
  description,
  children,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <fieldset className={cn("min-w-0 border-t pt-6 first-of-type:border-t-0 first-of-type:pt-0", className)}>
      <legend className="float-left mb-4 w-full text-base font-semibold">{title}</legend>
      <div className="clear-both grid gap-4">
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
        {children}
      </div>
    </fieldset>
  );
}

/** A checkbox with its label on the right (the label enlarges the hit area), and an optional hint below. */
export function CheckboxField({
  label,
  description,
  className,
  ...props
}: CheckboxProps & { id: string; label: ReactNode; description?: ReactNode }) {
  const descriptionId = description ? `${props.id}-description` : undefined;
  return (
    <div className={cn("grid gap-1", className)}>
      <div className="flex items-center gap-3">
        <Checkbox aria-describedby={descriptionId} {...props} />
        <Label htmlFor={props.id} className="cursor-pointer leading-snug">
          {label}
        </Label>
      </div>
      {description ? (
        <p id={descriptionId} className="pl-8 text-sm text-muted-foreground sm:pl-7">
          {description}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The form's default button, first in the form: pressing Enter in a text field submits the form
 * with it (the browser clicks the first submit button), not with the first list button (remove a
 * tag, remove an item...) of the form. Invisible and out of the tab order.
 */
export function DefaultSubmit({ name, value }: { name?: string; value?: string }) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      tabIndex={-1}
      aria-hidden="true"
      className="pointer-events-none absolute h-px w-px overflow-hidden opacity-0"
    />
  );
}
