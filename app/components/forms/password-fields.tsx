import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

type PasswordField = FieldMetadata<string, Record<string, unknown>, string[]>;

/**
 * A new password and its repetition (sign-up, password reset, the account's password dialog): the
 * policy hint under the first (its aria-describedby), the errors already text.
 */
export function NewPasswordFields({
  password,
  repeat,
  labels,
  errors,
  description,
  required = true,
  autoFocus,
}: {
  password: PasswordField;
  repeat: PasswordField;
  labels: { password: string; repeat: string };
  errors: { password?: string[]; repeat?: string[] };
  description: string;
  required?: boolean;
  autoFocus?: boolean;
}) {
  return (
    <>
      <Field label={labels.password} htmlFor={password.id} errors={errors.password} required={required} description={description}>
        <Input {...getInputProps(password, { type: "password", ariaDescribedBy: `${password.id}-description` })} autoComplete="new-password" autoFocus={autoFocus} />
      </Field>
      <Field label={labels.repeat} htmlFor={repeat.id} errors={errors.repeat} required={required}>
        <Input {...getInputProps(repeat, { type: "password" })} autoComplete="new-password" />
      </Field>
    </>
  );
}
