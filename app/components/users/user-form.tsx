import { getCollectionProps, getFormProps, getInputProps, getSelectProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { type BuildingChoice, BuildingChecklist, type BuildingSearch } from "~/components/forms/building-picker";
import { CheckboxField, DefaultSubmit, FormActions, FormSection } from "~/components/forms/form-parts";
import { ErrorText, FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { ImageField } from "~/components/settings/image-field";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { roleNeedsLinks } from "~/core/actor";
import { PRIORITY_VALUES, USER_LANGUAGE_VALUES } from "~/db/enums";
import { LINK_PICKER, NOTIFY_PICKER } from "~/lib/pickers";
import { CREATE_INTENT, UPDATE_INTENT, USERS_LIST } from "./user-form-constants";
import { Options } from "~/components/ui/options";

const validateCreate = zodValidator(() => import("~/modules/users/schema").then((m) => m.CreateUserFormSchema));
const validateUpdate = zodValidator(() => import("./user-form-schema").then((m) => m.UpdateUserFormSchema));

/** The user's values the form starts from (empty on /add-user). */
export interface UserFormValues {
  name: string;
  surname: string;
  email: string;
  role: number;
  language: number;
  receiveNotification: boolean;
  notificationSettings: { priorities: number[]; buildingIds: number[] };
  linkedObjects: { facilityIds: number[]; buildingIds: number[] };
  picture: string | null;
}

/** The linked objects' tree picker: the facilities that have buildings, and the buildings' checklist. */
export interface LinkPickerData {
  facilities: { id: number; name: string; buildingCount: number }[];
  chosen: BuildingChoice[];
  search: BuildingSearch;
}

/** The notification buildings' checklist (update only). */
export interface NotifyPickerData {
  chosen: BuildingChoice[];
  search: BuildingSearch;
}

const noopSubscribe = () => () => {};
const useHydrated = () =>
  useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );

const asStrings = (value: unknown) => ([] as unknown[]).concat(value ?? []).map(String);

/**
 * The user form of /add-user (`intent=create`) and /update-user/{id} (`intent=update`, with the
 * notification settings and the picture): a plain post that works without JavaScript. The linked
 * facilities are checkboxes; the linked buildings a searchable, paged checklist whose search and
 * "More buildings" post the form (`linkAction`) and come back with the input kept. Administrators
 * reach the whole entity: with JavaScript the picker hides when the role is administrator; without
 * it the server ignores the links.
 */
export function UserForm({
  mode,
  user,
  roles,
  links,
  notify,
  maxSize,
  lastResult,
}: {
  mode: "create" | "update";
  user: UserFormValues;
  roles: number[];
  links: LinkPickerData;
  notify?: NotifyPickerData;
  maxSize?: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("users");
  const text = useErrorText(["users"]);
  const hydrated = useHydrated();
  const intent = mode === "create" ? CREATE_INTENT : UPDATE_INTENT;
  const [form, fields] = useZodForm(mode === "create" ? validateCreate : validateUpdate, {
    id: `user-${mode}`,
    lastResult,
    defaultValue: {
      name: user.name,
      surname: user.surname,
      ...(mode === "create" ? { email: user.email } : {}),
      role: user.role ? String(user.role) : "",
      language: String(user.language),
      receiveNotification: user.receiveNotification ? "on" : undefined,
      linkedObjects: { facilityIds: user.linkedObjects.facilityIds.map(String), buildingIds: user.linkedObjects.buildingIds.map(String) },
      notificationSettings: {
        priorities: user.notificationSettings.priorities.map(String),
        buildingIds: user.notificationSettings.buildingIds.map(String),
      },
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
    } as any,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const all = fields as any;
  const linked = all.linkedObjects.getFieldset();
  const notification = all.notificationSettings.getFieldset();
  const roleOptions = roles.includes(user.role) || !user.role ? roles : [user.role, ...roles];
  const chosenRole = Number(all.role.value ?? "");
  const linksHidden = Boolean(all.role.value) && !roleNeedsLinks(chosenRole);
  const facilityBoxes = getCollectionProps(linked.facilityIds, { type: "checkbox", options: links.facilities.map((f) => String(f.id)) });
  const priorityBoxes = getCollectionProps(notification.priorities, { type: "checkbox", options: PRIORITY_VALUES.map(String) });
  const linkErrors = text([...(all.linkedObjects.errors ?? []), ...Object.values(linked.facilityIds.allErrors ?? {}).flat(), ...Object.values(linked.buildingIds.allErrors ?? {}).flat()] as string[]);

  return (
    <Form method="post" encType={mode === "update" ? "multipart/form-data" : undefined} {...getFormProps(form)} className="grid gap-6">
      <input type="hidden" name="intent" value={intent} />
      {/* Enter in a field saves (the pickers' buttons come first otherwise). */}
      <DefaultSubmit />
      <FormErrors id={form.errorId} errors={form.errors} ns={["users"]} />

      <FormSection title={t("form.identity")}>
        {mode === "update" && maxSize ? (
          <ImageField
            id="user-newPicture"
            name="newPicture"
            label={t("form.picture")}
            hint={t("settings:account.pictureHint", { size: maxSize })}
            errors={text(form.allErrors.newPicture)}
            currentUrl={user.picture}
            alt={t("form.pictureAlt", { name: `${user.name} ${user.surname}` })}
            emptyText={`${user.name.charAt(0)}${user.surname.charAt(0)}`.toUpperCase()}
            accept="image/png,image/jpeg,image/gif,image/webp"
            removeName={all.removePicture.name}
            removeLabel={t("settings:account.removePicture")}
            previewClassName="rounded-full text-2xl font-semibold"
          />
        ) : null}
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field label={t("form.name")} htmlFor={all.name.id} errors={text(all.name.errors)} required>
            <Input {...getInputProps(all.name, { type: "text" })} autoComplete="off" />
          </Field>
          <Field label={t("form.surname")} htmlFor={all.surname.id} errors={text(all.surname.errors)} required>
            <Input {...getInputProps(all.surname, { type: "text" })} autoComplete="off" />
          </Field>
          {mode === "create" ? (
            <Field label={t("form.email")} htmlFor={all.email.id} errors={text(all.email.errors)} description={t("form.emailHint")} required>
              <Input
                {...getInputProps(all.email, { type: "email", ariaDescribedBy: `${all.email.id}-description` })}
                autoComplete="off"
                spellCheck={false}
              />
            </Field>
          ) : (
            <Field label={t("form.email")} htmlFor="user-email" description={t("form.emailReadOnly")}>
              <Input id="user-email" type="email" value={user.email} readOnly aria-describedby="user-email-description" className="bg-muted" />
            </Field>
          )}
          <Field label={t("form.role")} htmlFor={all.role.id} errors={text(all.role.errors)} required>
            <Select {...getSelectProps(all.role)}>
              <option value="">{t("form.chooseRole")}</option>
              <Options values={roleOptions} label={(role) => t(`shell:roles.${role}`)} />
            </Select>
          </Field>
          <Field label={t("form.language")} htmlFor={all.language.id} errors={text(all.language.errors)}>
            <Select {...getSelectProps(all.language)}>
              <Options values={USER_LANGUAGE_VALUES} label={(value) => t(`settings:account.languages.${value}`)} />
            </Select>
          </Field>
        </div>
      </FormSection>

      <FormSection title={t("form.links")} description={t("form.linksHint")}>
        <p className="text-sm text-muted-foreground">{t("form.administratorsReachAll")}</p>
        <div className="grid items-start gap-6 lg:grid-cols-2" hidden={hydrated && linksHidden}>
          <fieldset className="grid min-w-0 content-start gap-3">
            <legend className="mb-3 text-sm font-medium">{t("form.facilities")}</legend>
            {links.facilities.length ? (
              <div className="grid max-h-64 gap-2 overflow-y-auto rounded-md border p-3">
                {facilityBoxes.map(({ key, type: _type, ...props }, index) => (
                  <CheckboxField
                    key={key}
                    {...props}
                    label={t("form.facilityOption", { name: links.facilities[index].name, count: links.facilities[index].buildingCount })}
                  />
                ))}
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">{t("form.noFacilities")}</p>
            )}
            <p className="text-sm text-muted-foreground">{t("form.facilitiesHint")}</p>
          </fieldset>
          <BuildingChecklist
            legend={t("form.buildings")}
            hint={t("form.buildingsHint")}
            name={linked.buildingIds.name}
            idPrefix={linked.buildingIds.id}
            checked={asStrings(linked.buildingIds.initialValue)}
            chosen={links.chosen}
            search={links.search}
            submit={{ method: "post", name: LINK_PICKER.action, searchIntent: "find", moreIntent: "more" }}
            searchName={LINK_PICKER.search}
            afterName={LINK_PICKER.after}
            emptyText={t("form.noBuildings")}
          />
        </div>
        <ErrorText id={all.linkedObjects.errorId} errors={linkErrors} role="alert" />
      </FormSection>

      <FormSection title={t("form.notifications")}>
        <CheckboxField
          {...getInputProps(all.receiveNotification, { type: "checkbox" })}
          label={t("form.receiveNotification")}
          description={t("settings:account.receiveNotificationHint")}
        />
        {mode === "update" && notify ? (
          <div className="grid items-start gap-6 lg:grid-cols-2">
            <fieldset className="grid min-w-0 content-start gap-3" aria-describedby={`${notification.priorities.id}-description`}>
              <legend className="mb-3 text-sm font-medium">{t("settings:account.priorities")}</legend>
              <div className="flex flex-wrap gap-x-6 gap-y-3">
                {priorityBoxes.map(({ key, ...props }) => (
                  <CheckboxField key={key} {...props} label={t(`settings:account.priority.${props.value}`)} />
                ))}
              </div>
              <p id={`${notification.priorities.id}-description`} className="text-sm text-muted-foreground">
                {t("form.prioritiesHint")}
              </p>
            </fieldset>
            <BuildingChecklist
              legend={t("settings:account.buildings")}
              hint={t("form.notificationBuildingsHint")}
              name={notification.buildingIds.name}
              idPrefix={notification.buildingIds.id}
              checked={asStrings(notification.buildingIds.initialValue)}
              chosen={notify.chosen}
              search={notify.search}
              submit={{ method: "post", name: NOTIFY_PICKER.action, searchIntent: "find", moreIntent: "more" }}
              searchName={NOTIFY_PICKER.search}
              afterName={NOTIFY_PICKER.after}
              errors={text([...(all.notificationSettings.errors ?? []), ...Object.values(notification.buildingIds.allErrors ?? {}).flat()] as string[])}
              emptyText={t("settings:account.noBuildings")}
            />
          </div>
        ) : null}
      </FormSection>

      <FormActions intent={intent} cancelTo={USERS_LIST} submitLabel={mode === "create" ? t("form.invite") : t("common:actions.save")} />
    </Form>
  );
}
