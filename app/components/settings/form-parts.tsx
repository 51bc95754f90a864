import { useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormErrors as SharedFormErrors, useErrorText as useSharedErrorText } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { Checkbox, type CheckboxProps } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/utils";

/** The shared error text and form-level errors, looked up in the "settings" namespace first. */
export const useErrorText = () => useSharedErrorText(["settings"]);
export function FormErrors(props: { id?: string; errors?: string[] | null }) {
  return <SharedFormErrors {...props} ns={["settings"]} />;
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

/** The submit button of one of the page's forms: disabled while that form (by intent) is being sent. */
export function SubmitButton({ intent, children, className }: { intent: string; children: ReactNode; className?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const { t } = useTranslation("settings");
  return (
    <Button type="submit" disabled={busy} className={cn("w-full sm:w-auto", className)}>
      {busy ? t("saving") : children}
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
    <fieldset className={cn("min-w-0 border-t pt-6 first:border-t-0 first:pt-0", className)}>
      <legend className="float-left mb-4 w-full text-base font-semibold">{title}</legend>
      <div className="clear-both grid gap-4">
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
        {children}
      </div>
    </fieldset>
  );
}
