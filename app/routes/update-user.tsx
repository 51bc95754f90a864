import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ARCHIVE_INTENT, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { keepInputReply } from "~/components/forms/keep-input-reply";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { ArchiveUserDialog } from "~/components/users/archive-user-dialog";
import { type LinkPickerData, type NotifyPickerData, UserForm } from "~/components/users/user-form";
import { ASSIGNEE_SEARCH_FIELD, RESEND_INTENT, STATUS_INTENT, UPDATE_INTENT, USERS_LIST } from "~/components/users/user-form-constants";
// The form schemas (zod) serve the action only: the page loads them when a form is first used (decision 021).
import { ArchiveUserFormSchema, StatusFormSchema, UpdateUserFormSchema } from "~/components/users/user-form-schema";
import { UserHistory, UserStatusCard } from "~/components/users/user-panels";
import { formFailed, readFormData, serviceFailed, submitForm, toUpload, uploadedFile } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { toastHeader } from "~/http/toast.server";
import { asFormError, linkPickerData, notifyPickerData, PICKER_FIELDS, pickerAction, postedBuildingIds } from "~/http/user-form.server";
import { searchParam } from "~/lib/list-query";
import { requireUser } from "~/modules/auth/guard.server";
import { archiveUser, resendInvitation, setUserStatus, updateUser } from "~/modules/users/management.server";
import { getUser, listAssignees, listUserHistory } from "~/modules/users/queries.server";
import { assignableRoles, fullName } from "~/modules/users/constants";

/**
 * /update-user/{id}: the user form (`intent=update`), the status toggle (`intent=status`), a new
 * invitation for a user who has not set a password yet (`intent=resend`), the audit history, and the
 * archive dialog at `?dialog=archive` (`intent=archive`, with the two reassignment choices). Another
 * entity's id, or an archived user, is the "User not found" page.
 */
const ASSIGNEES_PAGE = 50;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const editor = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, editor);
  const user = await orErrorPage(getUser(ctx, id));
  const search = new URL(request.url).searchParams;
  const assigneeQ = searchParam(search, ASSIGNEE_SEARCH_FIELD);
  const [history, links, notify, assignees] = await Promise.all([
    listUserHistory(ctx, id),
    linkPickerData(ctx, search, user.linkedObjects.buildingIds),
    notifyPickerData(ctx, search, user.notificationSettings.buildingIds),
    listAssignees(ctx, { q: assigneeQ, excludeId: id, size: ASSIGNEES_PAGE }),
  ]);
  // The chosen buildings as the user has them, even outside the editor's own reach.
  const chosen = links.chosen.length === user.linkedBuildings.length ? links.chosen : user.linkedBuildings;
  return {
    user,
    roles: assignableRoles(editor.role),
    links: { ...links, chosen },
    notify,
    history,
    assignees,
    assigneeQ,
    maxBytes: ctx.files.maxBytes,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const editor = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, editor);
  const formData = await readFormData(request, ctx.files.maxBytes);
  const here = `/update-user/${id}`;
  switch (formData.get("intent")) {
    case UPDATE_INTENT: {
      if (pickerAction(formData)) {
        // A buildings' search without JavaScript: the form again, input kept, with the matching buildings.
        const chosen = postedBuildingIds(formData);
        const [links, notify] = await Promise.all([linkPickerData(ctx, formData, chosen.linked), notifyPickerData(ctx, formData, chosen.notify)]);
        return data({ intent: UPDATE_INTENT, result: keepInputReply(formData, [...PICKER_FIELDS, "newPicture"]), revision: Date.now(), links, notify });
      }
      return submitForm(formData, { intent: UPDATE_INTENT, schema: UpdateUserFormSchema, redirectTo: USERS_LIST, toast: "users:toast.updated" }, async (value) => {
        const { removePicture, ...fields } = value;
        const picture = uploadedFile(formData, "newPicture");
        return asFormError(
          updateUser(ctx, id, { ...fields, updatePicture: Boolean(picture) || removePicture, newPicture: picture ? await toUpload(picture) : null }),
        );
      });
    }
    case STATUS_INTENT:
      return submitForm(formData, { intent: STATUS_INTENT, schema: StatusFormSchema, redirectTo: here, toast: "users:toast.statusUpdated" }, (value) =>
        asFormError(setUserStatus(ctx, id, value)),
      );
    case RESEND_INTENT:
      return submitForm(formData, { intent: RESEND_INTENT, schema: z.object({}), redirectTo: here, toast: "users:toast.invitationSent" }, () =>
        asFormError(resendInvitation(ctx, id)),
      );
    case ARCHIVE_INTENT: {
      const submission = parseWithZod(formData, { schema: ArchiveUserFormSchema });
      if (submission.status !== "success") return formFailed(ARCHIVE_INTENT, submission.reply());
      let result;
      try {
        result = await asFormError(archiveUser(ctx, id, submission.value));
      } catch (error) {
        return serviceFailed(ARCHIVE_INTENT, (options) => submission.reply(options), error);
      }
      const toast = await toastHeader({
        type: "success",
        key: "users:toast.archivedCounts",
        params: { incidents: result.incidentsReassigned, tasks: result.tasksReassigned, plans: result.plannedMaintenancesReassigned },
      });
      return redirect(USERS_LIST, { headers: { "Set-Cookie": toast } });
    }
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateUser() {
  const { t } = useTranslation("users");
  const { user, roles, links, notify, history, assignees, assigneeQ, maxBytes } = useLoaderData<typeof loader>();
  const picked = useActionData<typeof action>() as { revision?: number; links?: LinkPickerData; notify?: NotifyPickerData } | undefined;
  const resultFor = useResultFor();
  const name = fullName(user);
  const maxSize = t("settings:files.maxSize", { size: Math.round((maxBytes / (1024 * 1024)) * 10) / 10 });
  return (
    <>
      <ArchiveUserDialog name={name} assignees={assignees} assigneeQ={assigneeQ} lastResult={resultFor(ARCHIVE_INTENT)} />
      <div className="mx-auto grid w-full max-w-3xl gap-6">
        <FormPage
          title={t("common:screens.update-user")}
          subtitle={t("form.subtitle", { name, email: user.email })}
          backTo={USERS_LIST}
          backLabel={t("form.back")}
          actions={<ArchiveTrigger>{t("form.archive")}</ArchiveTrigger>}
        >
          <UserForm
            key={picked?.revision ?? 0}
            mode="update"
            user={user}
            roles={roles}
            links={picked?.links ?? links}
            notify={picked?.notify ?? notify}
            maxSize={maxSize}
            lastResult={resultFor(UPDATE_INTENT)}
          />
        </FormPage>
        <UserStatusCard status={user.status} validated={user.validated} statusResult={resultFor(STATUS_INTENT)} resendResult={resultFor(RESEND_INTENT)} />
        <UserHistory entries={history} />
      </div>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
