import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { keepInputReply } from "~/components/forms/keep-input-reply";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { type LinkPickerData, UserForm, type UserFormValues } from "~/components/users/user-form";
import { CREATE_INTENT, USERS_LIST } from "~/components/users/user-form-constants";
import { formDataOf, submitForm } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { asFormError, linkPickerData, PICKER_FIELDS, pickerAction, postedBuildingIds } from "~/http/user-form.server";
import { requireUser } from "~/modules/auth/guard.server";
import { assignableRoles } from "~/modules/users/constants";
import { CreateUserFormSchema } from "~/modules/users/schema";
import { createUser } from "~/modules/users/management.server";

/**
 * /add-user: invites a user (name, surname, email, role, language, notifications, linked facilities
 * and buildings). The verb queues the invitation mail; on success back to /users with "User created".
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  const links = await linkPickerData(ctx, new URL(request.url).searchParams, []);
  return { roles: assignableRoles(user.role), links };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  const formData = await formDataOf(request);
  if (pickerAction(formData)) {
    // The buildings' search without JavaScript: the form again, input kept, with the matching buildings.
    const links = await linkPickerData(ctx, formData, postedBuildingIds(formData).linked);
    return data({ intent: CREATE_INTENT, result: keepInputReply(formData, PICKER_FIELDS), revision: Date.now(), links });
  }
  if (formData.get("intent") !== CREATE_INTENT) throw new Response("Bad Request", { status: 400 });
  return submitForm(formData, { intent: CREATE_INTENT, schema: CreateUserFormSchema, redirectTo: USERS_LIST, toast: "users:toast.created" }, (input) =>
    asFormError(createUser(ctx, input)),
  );
}

const EMPTY: UserFormValues = {
  name: "",
  surname: "",
  email: "",
  role: 2,
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
