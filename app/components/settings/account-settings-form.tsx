import type { z } from "zod";
import { getCollectionProps, getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { PRIORITY_VALUES, USER_LANGUAGE_VALUES } from "~/db/enums";
import type { AccountFormSchema } from "~/modules/users/schema";
import { type BuildingChoice, BuildingChecklist, type BuildingSearch } from "~/components/forms/building-picker";
import { DefaultSubmit } from "~/components/forms/form-parts";
import { FormErrors } from "~/components/forms/zod-form";
import { CheckboxField, FormSection, SubmitButton, useErrorText } from "./form-parts";
import { ImageField } from "./image-field";
import { useLazyValidator, zodValidator } from "~/components/forms/zod-form";
import { Options } from "~/components/ui/options";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateAccount = zodValidator(() => import("~/modules/users/schema").then((m) => m.AccountFormSchema));

export interface AccountData {
  name: string;
  surname: string;
  email: string;
  language: number;
  receiveNotification: boolean;
  notificationSettings: { priorities: number[]; buildingIds: number[] };
  picture: string | null;
}

/** The notification buildings' picker: the chosen buildings, named, and one page of matches. */
export interface NotificationBuildingsData {
  chosen: BuildingChoice[];
  search: BuildingSearch;
}

/** The account form's submit buttons of the buildings picker without JavaScript (`buildingAction`). */
export const BUILDING_ACTION_FIELD = "buildingAction";

/** Account Settings: name, surname, language, notifications and picture of the signed-in user. */
export function AccountSettingsForm({
  account,
  buildings,
  maxSize,
  lastResult,
}: {
  account: AccountData;
  buildings: NotificationBuildingsData;
  maxSize: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("settings");
  const text = useErrorText();
  const onValidate = useLazyValidator("account", validateAccount, Boolean(lastResult));
  const [form, fields] = useForm<z.input<typeof AccountFormSchema>, z.output<typeof AccountFormSchema>>({
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
    onValidate,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const notification = fields.notificationSettings.getFieldset();
  const priorityInputs = getCollectionProps(notification.priorities, {
    type: "checkbox",
    options: PRIORITY_VALUES.map(String),
  });
  const checkedBuildings = ([] as unknown[]).concat(notification.buildingIds.initialValue ?? []).map(String);

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("account.title")}</CardTitle>
        <CardDescription>{t("account.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid gap-6">
          <input type="hidden" name="intent" value="account" />
          {/* Enter in a field saves (the buildings picker's buttons come first otherwise). */}
          <DefaultSubmit />
          <FormErrors id={form.errorId} errors={form.errors} ns={["settings"]} />

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
                  <Options values={USER_LANGUAGE_VALUES} label={(value) => t(`account.languages.${value}`)} />
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
              <BuildingChecklist
                legend={t("account.buildings")}
                hint={t("account.buildingsHint")}
                name={notification.buildingIds.name}
                idPrefix={notification.buildingIds.id}
                checked={checkedBuildings}
                chosen={buildings.chosen}
                search={buildings.search}
                submit={{ method: "post", name: BUILDING_ACTION_FIELD, searchIntent: "find", moreIntent: "more" }}
                errors={text(Object.values(notification.buildingIds.allErrors).flat())}
                emptyText={t("account.noBuildings")}
              />
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
