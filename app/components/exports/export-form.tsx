import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { INCIDENT_STATUS_VALUES, PRIORITY_VALUES, ROLE_VALUES, USER_STATUS_VALUES } from "~/db/enums";
import { EXPORT_FILTERS, EXPORT_FORMATS, EXPORT_TYPE_NAMES, EXPORT_TYPE_SLUGS, type ExportFilterKind, type ExportTypeSlug } from "~/modules/exports/constants";
import { Options } from "~/components/ui/options";

export const START_EXPORT_INTENT = "start";
const validator = zodValidator(() => import("~/modules/exports/schema").then((m) => m.StartExportSchema));

type Option = { id: number; name: string };
export interface ExportFormOptions {
  facilities: Option[];
  categories: Option[];
  maintenanceTypes: Option[];
}

/** The filter kinds the form offers (the API takes the others too: building, incident type, plan, assignee). */
const SHOWN: ReadonlySet<ExportFilterKind> = new Set(["statuses", "priorities", "facility", "from", "to", "q", "role", "userStatus", "category", "maintenanceType", "taskStatus", "workedFrom", "workedTo"]);

/**
 * The type chooser (a GET form: the chosen type's filters are a page of their own, so it works without
 * JavaScript) and the export form of that type: its format and its list filters, posted to start it.
 */
export function ExportTypeChooser({ type }: { type: ExportTypeSlug }) {
  const { t } = useTranslation("exports");
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3">
      <div className="grid gap-2">
        <Label htmlFor="export-type">{t("form.type")}</Label>
        <Select id="export-type" name="type" defaultValue={type} className="sm:w-72" onChange={(e) => e.currentTarget.form?.requestSubmit()}>
          <Options values={EXPORT_TYPE_NAMES} label={(slug) => t(`types.${EXPORT_TYPE_SLUGS[slug]}`)} />
        </Select>
      </div>
      <Button type="submit" variant="outline">
        {t("form.chooseType")}
      </Button>
    </Form>
  );
}

export function ExportForm({ type, options, lastResult }: { type: ExportTypeSlug; options: ExportFormOptions; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("exports");
  const errorText = useErrorText(["exports"]);
  const [form] = useZodForm(validator, { id: `export-${type}`, lastResult });
  const kept = (lastResult?.initialValue ?? {}) as { format?: string; filters?: Record<string, string | string[]> };
  const keptFilters = kept.filters ?? {};
  const keptOne = (name: string) => {
    const v = keptFilters[name];
    return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
  };
  const keptMany = (name: string) => {
    const v = keptFilters[name];
    return Array.isArray(v) ? v : v ? [v] : [];
  };
  const errors = [...new Set(Object.values(lastResult?.error ?? {}).flatMap((messages) => messages ?? []))];
  const filters = Object.entries(EXPORT_FILTERS[type]).filter(([, kind]) => kind && SHOWN.has(kind)) as [string, ExportFilterKind][];

  const select = (name: string, label: string, choices: { value: string | number; label: string }[]) => (
    <div className="grid gap-2" key={name}>
      <Label htmlFor={`filter-${name}`}>{label}</Label>
      <Select id={`filter-${name}`} name={`filters.${name}`} defaultValue={keptOne(name)} className="sm:w-64">
        <option value="">{t("form.all")}</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </Select>
    </div>
  );
  const checks = (name: string, label: string, choices: { value: string | number; label: string }[]) => (
    <fieldset className="grid gap-2" key={name}>
      <legend className="text-sm font-medium">{label}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {choices.map((c) => (
          <label key={c.value} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={`filters.${name}`} value={c.value} defaultChecked={keptMany(name).includes(String(c.value))} />
            {c.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
  const field = (name: string, kind: ExportFilterKind) => {
    switch (kind) {
      case "statuses":
        return checks(name, t("form.status"), INCIDENT_STATUS_VALUES.filter((s) => s !== 4).map((s) => ({ value: s, label: t(`values.incidentStatus.${s}`) })));
      case "priorities":
        return checks(name, t("form.priority"), [...PRIORITY_VALUES.map((p) => ({ value: String(p), label: t(`values.priority.${p}`) })), { value: "none", label: t("values.priority.none") }]);
      case "facility":
        return select(name, t("form.facility"), options.facilities.map((o) => ({ value: o.id, label: o.name })));
      case "category":
        return select(name, t("form.category"), options.categories.map((o) => ({ value: o.id, label: o.name })));
      case "maintenanceType":
        return select(name, t("form.maintenanceType"), options.maintenanceTypes.map((o) => ({ value: o.id, label: o.name })));
      case "role":
        return select(name, t("form.role"), ROLE_VALUES.map((r) => ({ value: r, label: t(`values.role.${r}`) })));
      case "userStatus":
        return select(name, t("form.userStatus"), USER_STATUS_VALUES.map((s) => ({ value: s, label: t(`values.userStatus.${s}`) })));
      case "taskStatus":
        return select(name, t("form.taskStatus"), (["pending", "done"] as const).map((s) => ({ value: s, label: t(`form.taskStatuses.${s}`) })));
      case "from":
      case "to":
      case "workedFrom":
      case "workedTo":
      case "q":
        return (
          <div className="grid gap-2" key={name}>
            <Label htmlFor={`filter-${name}`}>{t(`form.${kind}`)}</Label>
            <Input id={`filter-${name}`} name={`filters.${name}`} type={kind === "q" ? "search" : "date"} defaultValue={keptOne(name)} maxLength={100} className="sm:w-64" />
          </div>
        );
      default:
        return null;
    }
  };

  return (
    <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="grid gap-5 rounded-lg border p-4">
      <input type="hidden" name="intent" value={START_EXPORT_INTENT} />
      <input type="hidden" name="type" value={type} />
      {errors.length ? (
        <Alert variant="destructive">
          <ul>
            {errorText(errors)?.map((text, i) => (
              <li key={errors[i]}>{text}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">{t("form.format")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {EXPORT_FORMATS.map((format) => (
            <label key={format} className="flex items-center gap-2 text-sm">
              <input type="radio" name="format" value={format} defaultChecked={(kept.format ?? "xlsx") === format} />
              {t(`formats.${format}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-4">
        <h2 className="text-lg font-semibold">{t("form.filters")}</h2>
        {filters.length ? <div className="flex flex-wrap items-start gap-4">{filters.map(([name, kind]) => field(name, kind))}</div> : <p className="text-sm text-muted-foreground">{t("form.noFilters")}</p>}
      </div>
      <div>
        <Button type="submit">{t("form.start")}</Button>
      </div>
    </Form>
  );
}
