import { useErrorText as useSharedErrorText } from "~/components/forms/zod-form";

/** The generic form parts (app/components/forms/form-parts.tsx), used by the settings forms too. */
export { CheckboxField, FormSection, SubmitButton } from "~/components/forms/form-parts";

/** The shared error text, looked up in the "settings" namespace first (form-level errors: `<FormErrors ns={["settings"]}>`). */
export const useErrorText = () => useSharedErrorText(["settings"]);
