import { getFormProps, getSelectProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ArchiveDialog } from "~/components/forms/archive-dialog";
import { ArchiveFooter, ConfirmNameField } from "~/components/forms/archive-footer";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { ARCHIVE_DIALOG, ARCHIVE_INTENT } from "~/lib/archive-intent";
import type { Page } from "~/lib/list-query";
import { ASSIGNEE_SEARCH_FIELD } from "./user-form-constants";
import { Options } from "~/components/ui/options";

export interface AssigneeChoice {
  id: number;
  name: string;
  surname: string;
  role: number;
}

/**
 * The archive confirmation of a user (SPEC.md sections 4 and 5), a URL dialog (`?dialog=archive`) that
 * works without JavaScript: the retyped full name, then who takes over the Pending and In Progress
 * incidents and who the planned maintenance ("Unassigned" = 0). Only people who reach every incident that
 * moves are offered for the incidents (the verb refuses anyone else). When the assignees fill more than
 * one page, a search (a GET form, `assigneeQ`) narrows the two lists.
 */
export function ArchiveUserDialog({
  name,
  assignees,
  incidentAssignees,
  assigneeQ,
  lastResult,
}: {
  name: string;
  /** Who may take over the planned maintenance and tasks. */
  assignees: Page<AssigneeChoice>;
  /** Who may take over the open incidents: those who reach every one. */
  incidentAssignees: Page<AssigneeChoice>;
  assigneeQ: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("users");
  return (
    <ArchiveDialog
      name={name}
      details={t("archive.details")}
      size="md"
      form={(closeTo) => <ArchiveUserForm name={name} assignees={assignees} incidentAssignees={incidentAssignees} assigneeQ={assigneeQ} closeTo={closeTo} lastResult={lastResult} />}
    />
  );
}

function ArchiveUserForm({
  name,
  assignees,
  incidentAssignees,
  assigneeQ,
  closeTo,
  lastResult,
}: {
  name: string;
  assignees: Page<AssigneeChoice>;
  incidentAssignees: Page<AssigneeChoice>;
  assigneeQ: string;
  closeTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("users");
  const text = useErrorText(["users"]);
  const searchId = useId();
  const validator = useMemo(
    () =>
      zodValidator(() =>
        Promise.all([import("./user-form-schema"), import("~/lib/archive")]).then(([forms, archive]) =>
          forms.ArchiveUserFormSchema.extend({ confirmName: archive.confirmNameField(name) }),
        ),
      ),
    [name],
  );
  const [form, fields] = useZodForm(validator, { id: "archive", lastResult, defaultValue: { incidentsUserId: "0", plannedMaintenanceUserId: "0" } });
  const searchable = assignees.total > assignees.items.length || assigneeQ !== "";
  const optionsOf = (page: Page<AssigneeChoice>) =>
    page.items.map((a) => ({ id: a.id, label: t("archive.assigneeOption", { name: `${a.name} ${a.surname}`, role: t(`shell:roles.${a.role}`) }) }));
  const options = optionsOf(assignees);
  const incidentOptions = optionsOf(incidentAssignees);

  return (
    <>
      {searchable ? (
        <Form method="get" preventScrollReset className="mb-4 grid gap-1.5" role="search">
          <input type="hidden" name="dialog" value={ARCHIVE_DIALOG} />
          <Label htmlFor={searchId}>{t("archive.searchAssignees")}</Label>
          <div className="flex gap-2">
            <Input id={searchId} type="search" name={ASSIGNEE_SEARCH_FIELD} defaultValue={assigneeQ} key={assigneeQ} autoComplete="off" className="min-w-0 flex-1" />
            <Button type="submit" variant="outline">
              {t("common:list.searchButton")}
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">{t("archive.assigneesShown", { count: assignees.items.length, total: assignees.total })}</p>
        </Form>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="grid gap-4">
        <input type="hidden" name="intent" value={ARCHIVE_INTENT} />
        <FormErrors id={form.errorId} errors={form.errors} ns={["users"]} />
        <Field
          label={t("archive.incidentsTo")}
          htmlFor={fields.incidentsUserId.id}
          errors={text(fields.incidentsUserId.errors)}
          description={t("archive.incidentsToHint")}
        >
          <Select {...getSelectProps(fields.incidentsUserId)}>
            <option value="0">{t("archive.unassigned")}</option>
            <Options values={incidentOptions} label={(o) => o.label} />
          </Select>
        </Field>
        <Field label={t("archive.maintenanceTo")} htmlFor={fields.plannedMaintenanceUserId.id} errors={text(fields.plannedMaintenanceUserId.errors)}>
          <Select {...getSelectProps(fields.plannedMaintenanceUserId)}>
            <option value="0">{t("archive.unassigned")}</option>
            <Options values={options} label={(o) => o.label} />
          </Select>
        </Field>
        <ConfirmNameField name={name} field={fields.confirmName} errors={text(fields.confirmName.errors)} />
        <ArchiveFooter closeTo={closeTo} />
      </Form>
    </>
  );
}
