import type { z } from "zod";
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Field, fieldDescriptionId } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { brandColors } from "~/lib/contrast";
import { GREETING_LANGUAGES } from "~/modules/entities/constants";
import type { EntitySettingsFormSchema } from "~/modules/entities/schema";
import type { EntityView } from "~/modules/entities/service.server";
import { AddressFields } from "./address-fields";
import { FormErrors } from "~/components/forms/zod-form";
import { FormSection, SubmitButton, useErrorText } from "./form-parts";
import { ImageField } from "./image-field";
import { useLazyValidator, zodValidator } from "~/components/forms/zod-form";
import { textOf } from "~/lib/text";
import { Options } from "~/components/ui/options";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateEntitySettings = zodValidator(() => import("~/modules/entities/schema").then((m) => m.EntitySettingsFormSchema));

/**
 * Entity Settings: name, VAT number, time zone, address, billing address (or "same as address"),
 * greetings in the three languages, square logo and template colours.
 */
export function EntitySettingsForm({
  entity,
  timeZones,
  maxSize,
  lastResult,
}: {
  entity: EntityView;
  /** The server's list of IANA zones (app/lib/dates.ts), so that the options are the ones it accepts. */
  timeZones: readonly string[];
  maxSize: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("settings");
  const text = useErrorText();
  const onValidate = useLazyValidator("entity", validateEntitySettings, Boolean(lastResult));
  const [form, fields] = useForm<z.input<typeof EntitySettingsFormSchema>, z.output<typeof EntitySettingsFormSchema>>({
    id: "entity",
    lastResult,
    defaultValue: {
      name: entity.name,
      vatNumber: entity.vatNumber ?? "",
      address: entity.address,
      billingSameAsAddress: entity.billingSameAsAddress ? "on" : undefined,
      billingAddress: entity.billingAddress,
      greetingsMessages: GREETING_LANGUAGES.map((language) => ({
        language: String(language),
        message: entity.greetingsMessages.find((g) => g.language === language)?.message ?? "",
      })),
      templateColor: entity.templateColor,
      templateTextColor: entity.templateTextColor,
      timeZone: entity.timeZone,
      warrantyReminderDays: String(entity.warrantyReminderDays),
    },
    onValidate,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const greetings = fields.greetingsMessages.getFieldList();
  const color = textOf(fields.templateColor.value) ?? entity.templateColor;
  const textColor = textOf(fields.templateTextColor.value) ?? entity.templateTextColor;
  // What the header will show: the text colours are adjusted when they would be hard to read.
  const preview = brandColors(color, textColor, { color: entity.templateColor, textColor: entity.templateTextColor });
  const adjusted = preview.foreground !== textColor.toLowerCase();

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("entity.title")}</CardTitle>
        <CardDescription>{t("entity.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid gap-6">
          <input type="hidden" name="intent" value="entity" />
          <FormErrors id={form.errorId} errors={form.errors} ns={["settings"]} />

          <FormSection title={t("entity.general")}>
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <Field label={t("entity.name")} htmlFor={fields.name.id} errors={text(fields.name.errors)} required>
                <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="organization" />
              </Field>
              <Field label={t("entity.vatNumber")} htmlFor={fields.vatNumber.id} errors={text(fields.vatNumber.errors)} required>
                <Input {...getInputProps(fields.vatNumber, { type: "text" })} autoComplete="off" />
              </Field>
              <Field
                label={t("entity.timeZone")}
                htmlFor={fields.timeZone.id}
                errors={text(fields.timeZone.errors)}
                description={t("entity.timeZoneHint")}
              >
                <Select {...getSelectProps(fields.timeZone, { ariaDescribedBy: fieldDescriptionId(fields.timeZone.id) })}>
                  <TimeZoneOptions zones={timeZones} current={entity.timeZone} />
                </Select>
              </Field>
              <Field
                label={t("entity.warrantyReminderDays")}
                htmlFor={fields.warrantyReminderDays.id}
                errors={text(fields.warrantyReminderDays.errors)}
                description={t("entity.warrantyReminderDaysHint")}
              >
                <Input {...getInputProps(fields.warrantyReminderDays, { type: "number", ariaDescribedBy: fieldDescriptionId(fields.warrantyReminderDays.id) })} min={1} max={365} className="sm:w-32" />
              </Field>
            </div>
          </FormSection>

          <FormSection title={t("entity.address")}>
            <AddressFields fieldset={fields.address.getFieldset()} required />
          </FormSection>

          <FormSection title={t("entity.billingAddress")}>
            {/* Pure CSS (peer-checked) hides the billing fields while "same as address" is ticked, with or without JavaScript. */}
            <div className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-4">
              <Checkbox {...getInputProps(fields.billingSameAsAddress, { type: "checkbox" })} />
              <Label htmlFor={fields.billingSameAsAddress.id} className="cursor-pointer">
                {t("entity.billingSameAsAddress")}
              </Label>
              <div className="col-span-2 peer-checked:hidden">
                <AddressFields fieldset={fields.billingAddress.getFieldset()} required />
              </div>
            </div>
          </FormSection>

          <FormSection title={t("entity.greetings")} description={t("entity.greetingsHint")}>
            <div className="grid items-start gap-4 lg:grid-cols-3">
              {greetings.map((greeting, index) => {
                const g = greeting.getFieldset();
                const language = GREETING_LANGUAGES[index];
                return (
                  <Field key={greeting.key} label={t(`entity.greeting.${language}`)} htmlFor={g.message.id} errors={text(g.message.errors)} required>
                    <input type="hidden" name={g.language.name} value={String(language)} />
                    <Textarea {...getTextareaProps(g.message)} rows={4} lang={["en", "fr", "nl"][language]} />
                  </Field>
                );
              })}
            </div>
          </FormSection>

          <FormSection title={t("entity.branding")}>
            <ImageField
              id="entity-newLogo"
              name="newLogo"
              label={t("entity.logo")}
              hint={t("entity.logoHint", { size: maxSize })}
              errors={text(form.allErrors.newLogo)}
              currentUrl={entity.logo}
              alt={t("entity.logoAlt", { name: entity.name })}
              emptyText={t("entity.noLogo")}
              accept="image/png,image/jpeg,image/webp"
              removeName={fields.removeLogo.name}
              removeLabel={t("entity.removeLogo")}
            />
            <div className="grid grid-cols-2 items-end gap-4 sm:grid-cols-[auto_auto_1fr]">
              <ColorField
                id={fields.templateColor.id}
                label={t("entity.templateColor")}
                value={color}
                errors={text(fields.templateColor.errors)}
                input={getInputProps(fields.templateColor, { type: "color" })}
              />
              <ColorField
                id={fields.templateTextColor.id}
                label={t("entity.templateTextColor")}
                value={textColor}
                errors={text(fields.templateTextColor.errors)}
                input={getInputProps(fields.templateTextColor, { type: "color" })}
              />
              <div className="col-span-2 grid gap-2 sm:col-span-1">
                <span className="text-sm font-medium">{t("entity.preview")}</span>
                <div
                  className="flex h-11 items-center gap-3 rounded-md border px-4 text-sm font-semibold sm:h-10"
                  style={{ backgroundColor: preview.background, color: preview.foreground }}
                  data-brand-preview
                >
                  <span>{entity.name}</span>
                  <span aria-hidden="true">·</span>
                  <span className="font-normal" style={{ color: preview.muted }}>
                    {t("entity.previewText")}
                  </span>
                </div>
              </div>
            </div>
            <p className="text-sm text-muted-foreground">{t("entity.colorHint")}</p>
            {adjusted ? (
              <p className="text-sm text-muted-foreground" data-color-adjusted>
                {t("entity.colorAdjusted", { color: preview.foreground })}
              </p>
            ) : null}
          </FormSection>

          <div className="flex justify-end border-t pt-6">
            <SubmitButton intent="entity">{t("save")}</SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/**
 * The zones as options, grouped by their region ("America", "Europe"...; zones without one, such as UTC,
 * first), each named by its IANA name ("America / Argentina / Buenos Aires"). The entity's current zone
 * is listed even if this server's list lacks it, so a save does not change it unasked.
 */
function TimeZoneOptions({ zones, current }: { zones: readonly string[]; current: string }) {
  const all = zones.includes(current) ? zones : [current, ...zones];
  const loose = all.filter((zone) => !zone.includes("/"));
  const regions = new Map<string, string[]>();
  for (const zone of all) {
    const slash = zone.indexOf("/");
    if (slash < 0) continue;
    const region = zone.slice(0, slash);
    regions.set(region, [...(regions.get(region) ?? []), zone]);
  }
  const label = (name: string) => name.replaceAll("_", " ").replaceAll("/", " / ");
  return (
    <>
      <Options values={loose} label={(zone) => label(zone)} />
      {[...regions].map(([region, inRegion]) => (
        <optgroup key={region} label={region}>
          <Options values={inRegion} label={(zone) => label(zone)} />
        </optgroup>
      ))}
    </>
  );
}

function ColorField({
  id,
  label,
  value,
  errors,
  input,
}: {
  id: string;
  label: string;
  value: string;
  errors?: string[];
  input: ReturnType<typeof getInputProps>;
}) {
  const { key, ...props } = input;
  return (
    <Field label={label} htmlFor={id} errors={errors}>
      <div className="flex items-center gap-3">
        <input
          key={key}
          {...props}
          className="h-11 w-16 cursor-pointer rounded-md border border-input bg-background p-1 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 sm:h-10"
        />
        <code className="text-sm text-muted-foreground">{value}</code>
      </div>
    </Field>
  );
}
