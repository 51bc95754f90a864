import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { CountryOptions } from "~/components/forms/country-options";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { useErrorText } from "./form-parts";

type AddressFieldset = ReturnType<FieldMetadata<Record<string, unknown>, Record<string, unknown>, string[]>["getFieldset"]>;

/** The eight address fields of SPEC.md section 3; `required` marks the mandatory ones. */
export function AddressFields({ fieldset, required }: { fieldset: AddressFieldset; required: boolean }) {
  const { t } = useTranslation("settings");
  const text = useErrorText();
  const f = fieldset;
  const input = (name: string, autoComplete: string, isRequired: boolean, className?: string) => (
    <Field
      label={t(`address.${name}`)}
      htmlFor={f[name].id}
      errors={text(f[name].errors)}
      required={required && isRequired}
      className={className}
    >
      <Input {...getInputProps(f[name], { type: "text" })} autoComplete={autoComplete} />
    </Field>
  );
  return (
    <div className="grid grid-cols-2 items-start gap-4 sm:grid-cols-6">
      {input("streetName", "address-line1", true, "col-span-2 sm:col-span-4")}
      {input("streetNumber", "off", true, "sm:col-span-1")}
      {input("suffix", "off", false, "sm:col-span-1")}
      {input("buildingFloor", "address-line2", false, "col-span-2 sm:col-span-3")}
      {input("additionalInfo", "address-line3", false, "col-span-2 sm:col-span-3")}
      {input("postalCode", "postal-code", true, "sm:col-span-2")}
      {input("city", "address-level2", true, "sm:col-span-2")}
      <Field
        label={t("address.country")}
        htmlFor={f.country.id}
        errors={text(f.country.errors)}
        required={required}
        className="col-span-2"
      >
        <Select {...getSelectProps(f.country)} autoComplete="country">
          <CountryOptions />
        </Select>
      </Field>
    </div>
  );
}
