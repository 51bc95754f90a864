import { getCollectionProps, getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { PRIORITY_VALUES, USER_LANGUAGE_VALUES } from "~/db/enums";
import { AccountFormSchema } from "~/modules/users/schema";
import { CheckboxField, FormErrors, FormSection, SubmitButton, useErrorText } from "./form-parts";
import { ImageField } from "./image-field";

export interface AccountData {
  name: string;
  surname: string;
  email: string;
  language: number;
  receiveNotification: boolean;
  notificationSettings: { priorities: number[]; buildingIds: number[] };
  picture: string | null;
}

export interface BuildingOption {
  id: number;
  name: string;
  facilityId: number;
  facilityName: string;
}

/** Account Settings: name, surname, language, notifications and picture of the signed-in user. */
export function AccountSettingsForm({
  account,
  buildings,
  maxSize,
  lastResult,
}: {
  account: AccountData;
  buildings: BuildingOption[];
  maxSize: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("settings");
  const text = useErrorText();
  const [form, fields] = useForm({
    id: "account",
    lastResult,
    defaultValue: {
      name: account.name,
      surname: account.surname,
      language: String(account.language),
      receiveNotification: account.receiveNotification ? "on" : undefined,
      notificationSettings: {
        priorities: account.notificationSettings.priorities.map(String),
        buildingIds: account.notificationSettings.buildingIds.map(String),
      },
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountFormSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const notification = fields.notificationSettings.getFieldset();
  const priorityInputs = getCollectionProps(notification.priorities, {
    type: "checkbox",
    options: PRIORITY_VALUES.map(String),
  });
  const buildingInputs = getCollectionProps(notification.buildingIds, {
    type: "checkbox",
    options: buildings.map((b) => String(b.id)),
  });
  const facilities = [...new Map(buildings.map((b) => [b.facilityId, b.facilityName])).entries()];

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("account.title")}</CardTitle>
        <CardDescription>{t("account.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid gap-6">
          <input type="hidden" name="intent" value="account" />
          <FormErrors id={form.errorId} errors={form.errors} />

          <FormSection title={t("account.profile")}>
            <ImageField
              id="account-newPicture"
              name="newPicture"
              label={t("account.picture")}
              hint={t("account.pictureHint", { size: maxSize })}
              errors={text(form.allErrors.newPicture)}
              currentUrl={account.picture}
              alt={t("account.pictureAlt")}
              emptyText={`${account.name.charAt(0)}${account.surname.charAt(0)}`.toUpperCase()}
              accept="image/png,image/jpeg,image/gif,image/webp"
              removeName={fields.removePicture.name}
              removeLabel={t("account.removePicture")}
              previewClassName="rounded-full text-2xl font-semibold"
            />
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <Field label={t("account.name")} htmlFor={fields.name.id} errors={text(fields.name.errors)} required>
                <Input {...getInputProps(fields.name, { type: "text" })} autoComplete="given-name" />
              </Field>
              <Field label={t("account.surname")} htmlFor={fields.surname.id} errors={text(fields.surname.errors)} required>
                <Input {...getInputProps(fields.surname, { type: "text" })} autoComplete="family-name" />
              </Field>
              <Field label={t("account.email")} htmlFor="account-email" description={t("account.emailHint")}>
                <Input id="account-email" type="email" value={account.email} readOnly aria-describedby="account-email-description" className="bg-muted" />
              </Field>
              <Field label={t("account.language")} htmlFor={fields.language.id} errors={text(fields.language.errors)}>
                <Select {...getSelectProps(fields.language)}>
                  {USER_LANGUAGE_VALUES.map((value) => (
                    <option key={value} value={String(value)}>
                      {t(`account.languages.${value}`)}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
          </FormSection>

          <FormSection title={t("account.notifications")}>
            <CheckboxField
              {...getInputProps(fields.receiveNotification, { type: "checkbox" })}
              label={t("account.receiveNotification")}
              description={t("account.receiveNotificationHint")}
            />
            <div className="grid items-start gap-6 lg:grid-cols-2">
              <fieldset className="grid min-w-0 content-start gap-3" aria-describedby={`${notification.priorities.id}-description`}>
                <legend className="mb-3 text-sm font-medium">{t("account.priorities")}</legend>
                <div className="flex flex-wrap gap-x-6 gap-y-3">
                  {priorityInputs.map(({ key, ...props }) => (
                    <CheckboxField key={key} {...props} label={t(`account.priority.${props.value}`)} />
                  ))}
                </div>
                <p id={`${notification.priorities.id}-description`} className="text-sm text-muted-foreground">
                  {t("account.prioritiesHint")}
                </p>
                <FieldErrorList id={`${notification.priorities.id}-error`} errors={text(Object.values(notification.priorities.allErrors).flat())} />
              </fieldset>
              <fieldset className="grid min-w-0 content-start gap-3" aria-describedby={`${notification.buildingIds.id}-description`}>
                <legend className="mb-3 text-sm font-medium">{t("account.buildings")}</legend>
                {buildings.length === 0 ? (
                  <p className="text-sm text-muted-foreground">{t("account.noBuildings")}</p>
                ) : (
                  <div className="max-h-64 overflow-y-auto rounded-md border p-3">
                    {facilities.map(([facilityId, facilityName]) => (
                      <div key={facilityId} role="group" aria-label={facilityName} className="mb-3 last:mb-0">
                        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">{facilityName}</p>
                        <div className="grid gap-2 sm:grid-cols-2">
                          {buildings
                            .filter((b) => b.facilityId === facilityId)
                            .map((b) => {
                              const { key, ...props } = buildingInputs.find((p) => p.value === String(b.id))!;
                              return <CheckboxField key={key} {...props} label={b.name} />;
                            })}
                        </div>
                      </div>
                    ))}
                  </div>
                )}
                <p id={`${notification.buildingIds.id}-description`} className="text-sm text-muted-foreground">
                  {t("account.buildingsHint")}
                </p>
                <FieldErrorList id={`${notification.buildingIds.id}-error`} errors={text(Object.values(notification.buildingIds.allErrors).flat())} />
              </fieldset>
            </div>
          </FormSection>

          <div className="flex justify-end border-t pt-6">
            <SubmitButton intent="account">{t("save")}</SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function FieldErrorList({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div id={id} className="grid gap-1 text-sm font-medium text-destructive">
      {[...new Set(errors)].map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}
