import { Form } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Options } from "~/components/ui/options";

export interface TaskFilterValues {
  status: string;
  building: string;
  plan: string;
  assignee: string;
}

export interface TaskFilterChoices {
  buildings: { id: number; name: string }[];
  plans: { id: number; name: string }[];
  assignees: { id: number; name: string }[];
}

/**
 * The filters of /task as a GET form (the address keeps them; works without JavaScript). The calendar
 * offers location and assignee only; `keep` carries the view's own parameters (view, month, date).
 */
export function TaskFilters({ values, choices, calendar, keep }: { values: TaskFilterValues; choices: TaskFilterChoices; calendar: boolean; keep: Record<string, string> }) {
  const { t } = useTranslation("tasks");
  const id = useId();
  return (
    <Form method="get" className="grid gap-3 rounded-md border bg-background p-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" aria-label={t("filters.label")}>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {calendar ? null : (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-status`}>{t("filters.status")}</Label>
          <Select id={`${id}-status`} name="status" defaultValue={values.status}>
            <option value="pending">{t("status.0")}</option>
            <option value="done">{t("status.1")}</option>
            <option value="all">{t("filters.allStatuses")}</option>
          </Select>
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-building`}>{t("filters.location")}</Label>
        <Select id={`${id}-building`} name="building" defaultValue={values.building}>
          <option value="">{t("filters.allLocations")}</option>
          <Options values={choices.buildings} />
        </Select>
      </div>
      {calendar ? null : (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-plan`}>{t("filters.plan")}</Label>
          <Select id={`${id}-plan`} name="plan" defaultValue={values.plan}>
            <option value="">{t("filters.allPlans")}</option>
            <Options values={choices.plans} />
          </Select>
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-assignee`}>{t("filters.assignee")}</Label>
        <Select id={`${id}-assignee`} name="assignee" defaultValue={values.assignee}>
          <option value="me">{t("filters.mine")}</option>
          <option value="all">{t("filters.everyone")}</option>
          <Options values={choices.assignees} />
        </Select>
      </div>
      <Button type="submit" variant="outline">
        {t("filters.apply")}
      </Button>
    </Form>
  );
}
