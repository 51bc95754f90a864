import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ARCHIVE_INTENT, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { ArchiveUserDialog } from "~/components/users/archive-user-dialog";
import { type LinkPickerData, type NotifyPickerData, UserForm } from "~/components/users/user-form";
import { ASSIGNEE_SEARCH_FIELD, RESEND_INTENT, STATUS_INTENT, UPDATE_INTENT, USERS_LIST } from "~/components/users/user-form-constants";
// The form schemas (zod) serve the action only: the page loads them when a form is first used (decision 021).
import { ArchiveUserFormSchema, StatusFormSchema, UpdateUserFormSchema } from "~/components/users/user-form-schema";
import { UserHistory, UserStatusCard } from "~/components/users/user-panels";
import { UserStatusBadge } from "~/components/users/user-status";
import { Alert } from "~/components/ui/alert";
import { formFailed, serviceFailed, toUpload, uploadedFile } from "~/http/form-action.server";
import { formIntent, type IntentArgs, screenAction, screenLoader, subjectById } from "~/http/screen.server";
import { toastHeader } from "~/http/toast.server";
import { asFormError, linkPickerData, notifyPickerData, withBuildingPickers } from "~/http/user-form.server";
import { searchParam } from "~/lib/list-query";
import { archiveUser, resendInvitation, setUserStatus, updateUser } from "~/modules/users/management.server";
import { getUser, listAssignees, listUserHistory, type UserDetail } from "~/modules/users/queries.server";
import { assignableRoles, mayHandleRole } from "~/modules/users/policy.server";
import { fullName } from "~/modules/users/constants";

/**
 * /update-user/{id}: the user form (`intent=update`), the status toggle (`intent=status`), a new
 * invitation for a user who has not set a password yet (`intent=resend`), the audit history, and the
 * archive dialog at `?dialog=archive` (`intent=archive`, with the two reassignment choices). Another
 * entity's id, or an archived user, is the "User not found" page.
 */
const ASSIGNEES_PAGE = 50;

const person = subjectById(getUser);

export const loader = screenLoader(person, async ({ ctx, url, subject: user }) => {
  const search = url.searchParams;
  const assigneeQ = searchParam(search, ASSIGNEE_SEARCH_FIELD);
  const [history, links, notify, assignees, incidentAssignees] = await Promise.all([
    listUserHistory(ctx, user.id),
    linkPickerData(ctx, search, user.linkedObjects.buildingIds),
    notifyPickerData(ctx, search, user.notificationSettings.buildingIds),
    listAssignees(ctx, { q: assigneeQ, excludeId: user.id, size: ASSIGNEES_PAGE }),
    listAssignees(ctx, { q: assigneeQ, excludeId: user.id, size: ASSIGNEES_PAGE, successorsOf: user.id }),
  ]);
  // The chosen buildings as the user has them, even outside the editor's own reach.
  const chosen = links.chosen.length === user.linkedBuildings.length ? links.chosen : user.linkedBuildings;
  // Offer only what the verbs accept: nobody changes their own role or status or archives themselves,
  // and only an administrator changes an administrator.
  const self = user.id === ctx.actor?.id;
  const mayChange = mayHandleRole(ctx.actor, user.role);
  return {
    user,
    self,
    mayChange,
    roles: self ? [user.role] : assignableRoles(ctx.actor),
    links: { ...links, chosen },
    notify,
    history,
    assignees,
    incidentAssignees,
    assigneeQ,
    maxBytes: ctx.files.maxBytes,
  };
});

/** Back to this user's page (the status card's forms). */
const here = ({ subject }: { subject: { id: number } }) => `/update-user/${subject.id}`;

/** The archive dialog: the retyped name and who takes over; then to the list with what was reassigned. */
async function archive({ ctx, subject, formData }: IntentArgs<UserDetail>) {
  const submission = parseWithZod(formData, { schema: ArchiveUserFormSchema });
  if (submission.status !== "success") return formFailed(ARCHIVE_INTENT, submission.reply());
  let result;
  try {
    result = await asFormError(archiveUser(ctx, subject.id, submission.value));
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

export const action = screenAction({
  subject: person,
  files: true,
  intents: {
    [UPDATE_INTENT]: withBuildingPickers(
      formIntent({ schema: UpdateUserFormSchema, redirectTo: USERS_LIST, toast: "users:toast.updated" }, async ({ removePicture, ...fields }, { ctx, subject, formData }) => {
        const picture = uploadedFile(formData, "newPicture");
        const newPicture = picture ? await toUpload(picture) : null;
        return asFormError(updateUser(ctx, subject.id, { ...fields, updatePicture: Boolean(picture) || removePicture, newPicture }));
      }),
      { notify: true },
    ),
    [STATUS_INTENT]: formIntent({ schema: StatusFormSchema, redirectTo: here, toast: "users:toast.statusUpdated" }, (value, { ctx, subject }) =>
      asFormError(setUserStatus(ctx, subject.id, value)),
    ),
    [RESEND_INTENT]: formIntent({ schema: z.object({}), redirectTo: here, toast: "users:toast.invitationSent" }, (_, { ctx, subject }) =>
      asFormError(resendInvitation(ctx, subject.id)),
    ),
    [ARCHIVE_INTENT]: archive,
  },
});

export default function UpdateUser() {
  const { t } = useTranslation("users");
  const { user, self, mayChange, roles, links, notify, history, assignees, incidentAssignees, assigneeQ, maxBytes } = useLoaderData<typeof loader>();
  const picked = useActionData<typeof action>() as { revision?: number; links?: LinkPickerData; notify?: NotifyPickerData } | undefined;
  const resultFor = useResultFor();
  const name = fullName(user);
  const maxSize = t("settings:files.maxSize", { size: Math.round((maxBytes / (1024 * 1024)) * 10) / 10 });
  return (
    <>
      {mayChange && !self ? (
        <ArchiveUserDialog name={name} assignees={assignees} incidentAssignees={incidentAssignees} assigneeQ={assigneeQ} lastResult={resultFor(ARCHIVE_INTENT)} />
      ) : null}
      <div className="mx-auto grid w-full max-w-3xl gap-6">
        <FormPage
          title={t("common:screens.update-user")}
          subtitle={t("form.subtitle", { name, email: user.email })}
          backTo={USERS_LIST}
          backLabel={t("form.back")}
          actions={mayChange && !self ? <ArchiveTrigger>{t("form.archive")}</ArchiveTrigger> : undefined}
        >
          {mayChange ? (
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
          ) : (
            <>
              <Alert className="mb-4">
                <p>{t("form.administratorsOnly")}</p>
              </Alert>
              <dl className="grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
                <dt className="font-medium">{t("form.role")}</dt>
                <dd>{t(`shell:roles.${user.role}`)}</dd>
                <dt className="font-medium">{t("statusCard.current")}</dt>
                <dd>
                  <UserStatusBadge status={user.status} />
                </dd>
              </dl>
            </>
          )}
        </FormPage>
        {mayChange && !self ? (
          <UserStatusCard status={user.status} validated={user.validated} statusResult={resultFor(STATUS_INTENT)} resendResult={resultFor(RESEND_INTENT)} />
        ) : null}
        <UserHistory entries={history} />
      </div>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
