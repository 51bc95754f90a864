import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

// The form's shape differs from form to form; only the field's string value matters here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PasswordField = FieldMetadata<string | undefined, any, string[]>;

/**
 * A new password and its repetition (sign-up, password reset, the account's password dialog): the
 * policy hint under the first (its aria-describedby), the fields' errors through `errorText` (the
 * form's `useErrorText`).
 */
export function NewPasswordFields({
  password,
  repeat,
  labels,
  errorText,
  description,
  required = true,
  autoFocus,
}: {
  password: PasswordField;
  repeat: PasswordField;
  labels: { password: string; repeat: string };
  errorText: (keys?: string[]) => string[] | undefined;
  description: string;
  required?: boolean;
  autoFocus?: boolean;
}) {
  return (
    <>
      <Field label={labels.password} htmlFor={password.id} errors={errorText(password.errors)} required={required} description={description}>
        <Input {...getInputProps(password, { type: "password", ariaDescribedBy: `${password.id}-description` })} autoComplete="new-password" autoFocus={autoFocus} />
      </Field>
      <Field label={labels.repeat} htmlFor={repeat.id} errors={errorText(repeat.errors)} required={required}>
        <Input {...getInputProps(repeat, { type: "password" })} autoComplete="new-password" />
      </Field>
    </>
  );
}
