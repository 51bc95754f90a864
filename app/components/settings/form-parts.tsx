import { FormErrors as SharedFormErrors, useErrorText as useSharedErrorText } from "~/components/forms/zod-form";

/** The generic form parts (app/components/forms/form-parts.tsx), used by the settings forms too. */
export { CheckboxField, FormSection, SubmitButton } from "~/components/forms/form-parts";

/** The shared error text and form-level errors, looked up in the "settings" namespace first. */
export const useErrorText = () => useSharedErrorText(["settings"]);
export function FormErrors(props: { id?: string; errors?: string[] | null }) {
  return <SharedFormErrors {...props} ns={["settings"]} />;
}
