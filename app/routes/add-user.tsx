import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { type LinkPickerData, UserForm, type UserFormValues } from "~/components/users/user-form";
import { CREATE_INTENT, USERS_LIST } from "~/components/users/user-form-constants";
import { formIntent, screenAction, screenLoader } from "~/http/screen.server";
import { asFormError, linkPickerData, withBuildingPickers } from "~/http/user-form.server";
import { Role } from "~/db/enums";
import { assignableRoles } from "~/modules/users/policy.server";
import { CreateUserFormSchema } from "~/modules/users/schema";
import { createUser } from "~/modules/users/management.server";

/**
 * /add-user: invites a user (name, surname, email, role, language, notifications, linked facilities
 * and buildings). The verb queues the invitation mail; on success back to /users with "User created".
 */
export const loader = screenLoader(async ({ ctx, url }) => ({ roles: assignableRoles(ctx.actor), links: await linkPickerData(ctx, url.searchParams, []) }));

export const action = screenAction({
  intents: {
    [CREATE_INTENT]: withBuildingPickers(
      formIntent({ schema: CreateUserFormSchema, redirectTo: USERS_LIST, toast: "users:toast.created" }, (input, { ctx }) => asFormError(createUser(ctx, input))),
      { notify: false },
    ),
  },
});

const EMPTY: UserFormValues = {
  name: "",
  surname: "",
  email: "",
  role: Role.TECHNICIAN,
  language: 0,
  receiveNotification: false,
  notificationSettings: { priorities: [], buildingIds: [] },
  linkedObjects: { facilityIds: [], buildingIds: [] },
  picture: null,
};

export default function AddUser() {
  const { t } = useTranslation("users");
  const { roles, links } = useLoaderData<typeof loader>();
  const picked = useActionData<typeof action>() as { revision?: number; links?: LinkPickerData } | undefined;
  const resultFor = useResultFor();
  return (
    <FormPage title={t("common:screens.add-user")} subtitle={t("form.inviteHint")} backTo={USERS_LIST} backLabel={t("form.back")}>
      <UserForm key={picked?.revision ?? 0} mode="create" user={EMPTY} roles={roles} links={picked?.links ?? links} lastResult={resultFor(CREATE_INTENT)} />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
