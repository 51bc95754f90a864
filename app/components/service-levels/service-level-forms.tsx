import { getFormProps, getInputProps, getSelectProps, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { CheckboxField, DefaultSubmit, SubmitButton } from "~/components/forms/form-parts";
import { ErrorText, FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { buttonVariants } from "~/components/ui/button";
import { Dialog, DialogFooter, DialogTrigger, useUrlDialog } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { OpeningInterval } from "~/modules/service-levels/calendar";
import type * as schemas from "~/modules/service-levels/schema";
import { CLOCK_KINDS, HOLIDAY_LANGUAGES, hoursOf, MAX_HOLIDAY_YEAR, MAX_WARNING_MINUTES, MIN_HOLIDAY_YEAR, TARGET_PRIORITIES, timeOf, WEEKDAYS } from "~/modules/service-levels/values";
import { Options } from "~/components/ui/options";
import { SERVICE_LEVELS } from "./paths";

/**
 * The forms of /administration/service-levels (issue 62): plain posts told apart by `intent`, validated
 * in the browser with the verbs' schemas once JavaScript has loaded them (decision 021), and by the
 * server always; a refused post comes back with the input kept and the errors beside the fields.
 */

const NS = ["serviceLevels"];

type Schemas = typeof schemas;

/** A browser-side validator with one of the area's schemas, loaded with the others on first use. */
function validatorOf<T>(pick: (schemas: Schemas) => z.ZodType<unknown, T>) {
  return zodValidator(() =>
    import("~/modules/service-levels/schema").then(pick)
  );
}

const validateWeek = validatorOf((m) => m.WorkingWeekSchema);
const validateClosedDay = validatorOf((m) => m.ClosedDaySchema);
const validateHolidays = validatorOf((m) => m.PublicHolidaysSchema);
const validateTargets = validatorOf((m) => m.TargetsSchema);
const validateWarning = validatorOf((m) => m.WarningLeadSchema);

/**
 * One post of the page: the plain form, the hidden `intent` that tells it apart from the others, and
 * the form-level errors above its fields.
 */
function IntentForm({
  form,
  intent,
  className,
  errorsClassName,
  children,
}: {
  form: FormMetadata;
  intent: string;
  className: string;
  errorsClassName?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" {...getFormProps(form)} className={className}>
      <input type="hidden" name="intent" value={intent} />
      <FormErrors
        id={form.errorId}
        errors={form.errors}
        ns={NS}
        className={errorsClassName}
      />
      {children}
    </Form>
  );
}

/**
 * A form that edits a table at once (the week, the targets): Enter posts it, the submit button
 * stands under the table, and the header row hides on phones where each cell carries a caption.
 */
function TableForm({
  form,
  intent,
  submit,
  header,
  children,
}: {
  form: FormMetadata;
  intent: string;
  submit: string;
  header: ReactNode;
  children: ReactNode;
}) {
  return (
    <IntentForm form={form} intent={intent} className="grid gap-4">
      <DefaultSubmit />
      <Table className="max-sm:block max-sm:[&_tbody]:block">
        <TableHeader className="max-sm:hidden">
          <TableRow>{header}</TableRow>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
      <div className="flex justify-end">
        <SubmitButton intent={intent}>{submit}</SubmitButton>
      </div>
    </IntentForm>
  );
}

/** The working week: per weekday open or closed, opening and closing times. */
export function WorkingWeekForm({
  week,
  lastResult,
}: {
  week: Record<number, OpeningInterval[]>;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("serviceLevels");
  const text = useErrorText(NS);
  const defaultValue = Object.fromEntries(
    WEEKDAYS.map((name, index) => {
      const first = week[index + 1]?.[0];
      return [
        name,
        first
          ? {
              open: "on",
              opens: timeOf(first.opens),
              closes: timeOf(first.closes),
            }
          : { open: "", opens: "", closes: "" },
      ];
    })
  );
  const [form, fields] = useZodForm(validateWeek, {
    id: "service-levels-week",
    lastResult,
    defaultValue,
  });
  return (
    <TableForm
      form={form}
      intent="week"
      submit={t("week.submit")}
      header={
        <>
          <TableHead scope="col">{t("week.day")}</TableHead>
          <TableHead scope="col">{t("week.open")}</TableHead>
          <TableHead scope="col">{t("week.opens")}</TableHead>
          <TableHead scope="col">{t("week.closes")}</TableHead>
        </>
      }
    >
      {WEEKDAYS.map((name) => {
        const day = fields[name].getFieldset();
        const dayName = t(`weekdays.${name}`);
        const {
          key: _openKey,
          type: _type,
          ...open
        } = getInputProps(day.open, { type: "checkbox" });
        return (
          <TableRow
            key={name}
            className="max-sm:grid max-sm:grid-cols-2 max-sm:items-center max-sm:gap-x-2 max-sm:py-2"
          >
            <TableHead
              scope="row"
              className="font-medium capitalize max-sm:h-auto max-sm:px-0"
            >
              {dayName}
            </TableHead>
            <TableCell className="max-sm:px-0 max-sm:py-1">
              <CheckboxField
                {...open}
                id={day.open.id}
                label={
                  <>
                    <span className="sr-only">
                      {t("week.openOn", { day: dayName })}
                    </span>
                    <span aria-hidden="true" className="sm:hidden">
                      {t("week.open")}
                    </span>
                  </>
                }
              />
            </TableCell>
            <InputCell
              field={day.opens}
              type="time"
              caption={t("week.opens")}
              label={t("week.opensOn", { day: dayName })}
              errors={text(day.opens.errors)}
            />
            <InputCell
              field={day.closes}
              type="time"
              caption={t("week.closes")}
              label={t("week.closesOn", { day: dayName })}
              errors={text(day.closes.errors)}
            />
          </TableRow>
        );
      })}
    </TableForm>
  );
}

/** One closed day more: its date and name. */
export function ClosedDayForm({
  lastResult,
}: {
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("serviceLevels");
  const text = useErrorText(NS);
  const [form, fields] = useZodForm(validateClosedDay, {
    id: "service-levels-closed-day",
    lastResult,
    defaultValue: { day: "", name: "" },
  });
  return (
    <IntentForm
      form={form}
      intent="addClosedDay"
      className="grid gap-4 sm:grid-cols-[auto_1fr_auto] sm:items-start"
      errorsClassName="sm:col-span-3"
    >
      <Field
        label={t("closedDays.date")}
        htmlFor={fields.day.id}
        errors={text(fields.day.errors)}
        required
      >
        <Input {...getInputProps(fields.day, { type: "date" })} />
      </Field>
      <Field
        label={t("closedDays.name")}
        htmlFor={fields.name.id}
        errors={text(fields.name.errors)}
        required
      >
        <Input
          {...getInputProps(fields.name, { type: "text" })}
          autoComplete="off"
        />
      </Field>
      <SubmitButton intent="addClosedDay" className="sm:mt-8">
        {t("closedDays.add")}
      </SubmitButton>
    </IntentForm>
  );
}

/** Belgium's public holidays of a year, named in a language, as closed days. */
export function HolidaysForm({
  year,
  language,
  lastResult,
}: {
  year: number;
  language: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("serviceLevels");
  const text = useErrorText(NS);
  const [form, fields] = useZodForm(validateHolidays, {
    id: "service-levels-holidays",
    lastResult,
    defaultValue: { year: String(year), language },
  });
  return (
    <IntentForm
      form={form}
      intent="holidays"
      className="grid gap-4 sm:grid-cols-[8rem_12rem_auto] sm:items-start"
      errorsClassName="sm:col-span-3"
    >
      <Field
        label={t("holidays.year")}
        htmlFor={fields.year.id}
        errors={text(fields.year.errors)}
        required
      >
        <Input
          {...getInputProps(fields.year, { type: "number" })}
          min={MIN_HOLIDAY_YEAR}
          max={MAX_HOLIDAY_YEAR}
          step={1}
        />
      </Field>
      <Field
        label={t("holidays.language")}
        htmlFor={fields.language.id}
        errors={text(fields.language.errors)}
      >
        <Select {...getSelectProps(fields.language)}>
          <Options values={HOLIDAY_LANGUAGES} label={(code) => t(`languages.${code}`)} />
        </Select>
      </Field>
      <SubmitButton intent="holidays" className="sm:mt-8">
        {t("holidays.submit")}
      </SubmitButton>
    </IntentForm>
  );
}

/** The closed days, each with its removal (confirmed in a dialog at `?remove=<id>`). */
export function ClosedDayList({
  days,
  formatDay,
}: {
  days: { id: number; day: string; name: string }[];
  formatDay: (day: string) => string;
}) {
  const { t } = useTranslation("serviceLevels");
  if (days.length === 0)
    return (
      <p className="text-sm text-muted-foreground">{t("closedDays.empty")}</p>
    );
  return (
    <>
      {days.map((day) => (
        <RemoveClosedDayDialog
          key={day.id}
          id={day.id}
          name={day.name}
          day={formatDay(day.day)}
        />
      ))}
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">{t("closedDays.date")}</TableHead>
            <TableHead scope="col">{t("closedDays.name")}</TableHead>
            <TableHead scope="col" className="text-right">
              {t("closedDays.actions")}
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {days.map((day) => (
            <ClosedDayRow
              key={day.id}
              id={day.id}
              name={day.name}
              day={formatDay(day.day)}
              iso={day.day}
            />
          ))}
        </TableBody>
      </Table>
    </>
  );
}

function ClosedDayRow({
  id,
  name,
  day,
  iso,
}: {
  id: number;
  name: string;
  day: string;
  iso: string;
}) {
  const { t } = useTranslation("serviceLevels");
  const dialog = useUrlDialog(String(id), "remove");
  return (
    <TableRow>
      <TableCell className="whitespace-nowrap">
        <time dateTime={iso}>{day}</time>
      </TableCell>
      <TableCell className="break-words">{name}</TableCell>
      <TableCell className="text-right">
        <DialogTrigger
          to={dialog.openTo}
          variant="outline"
          size="sm"
          aria-label={t("closedDays.removeLabel", { name, day })}
        >
          {t("closedDays.remove")}
        </DialogTrigger>
      </TableCell>
    </TableRow>
  );
}

function RemoveClosedDayDialog({
  id,
  name,
  day,
}: {
  id: number;
  name: string;
  day: string;
}) {
  const { t } = useTranslation("serviceLevels");
  const dialog = useUrlDialog(String(id), "remove");
  return (
    <Dialog
      open={dialog.open}
      closeTo={dialog.closeTo}
      title={t("closedDays.removeTitle", { name })}
      description={t("closedDays.removeText", { day })}
      closeLabel={t("common:actions.close")}
      size="sm"
    >
      <Form method="post" action={dialog.closeTo} preventScrollReset>
        <input type="hidden" name="closedDayId" value={id} />
        <DialogFooter>
          <Link
            to={dialog.closeTo}
            preventScrollReset
            className={buttonVariants({ variant: "outline" })}
          >
            {t("common:actions.cancel")}
          </Link>
          <SubmitButton
            intent="removeClosedDay"
            postsIntent
            variant="destructive"
          >
            {t("closedDays.removeConfirm")}
          </SubmitButton>
        </DialogFooter>
      </Form>
    </Dialog>
  );
}

type TargetRowValue = {
  responseMinutes: number | null;
  responseClock: string;
  resolutionMinutes: number | null;
  resolutionClock: string;
};

/**
 * The targets of the five priorities: response and resolution, in hours, each with its clock. With
 * `inherited` (an incident type's override, the entity's targets), empty hours use the entity's target,
 * which is written under each field.
 */
export function TargetsForm({
  targets,
  inherited,
  lastResult,
}: {
  targets: Record<string, TargetRowValue>;
  inherited?: Record<string, TargetRowValue>;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("serviceLevels");
  const inheritedText = (minutes: number | null, clock: string) =>
    minutes === null
      ? t("override.entityNone")
      : t("override.entityTarget", {
          hours: hoursOf(minutes),
          clock: t(`clocks.${clock}`),
        });
  const hours = (minutes: number | null) =>
    minutes === null ? "" : hoursOf(minutes);
  const defaultValue = Object.fromEntries(
    TARGET_PRIORITIES.map((key) => {
      const row = targets[key];
      return [
        key,
        {
          responseHours: hours(row.responseMinutes),
          responseClock: row.responseClock,
          resolutionHours: hours(row.resolutionMinutes),
          resolutionClock: row.resolutionClock,
        },
      ];
    })
  );
  const [form, fields] = useZodForm(validateTargets, {
    id: inherited ? "service-levels-type-targets" : "service-levels-targets",
    lastResult,
    defaultValue,
  });
  return (
    <TableForm
      form={form}
      intent="targets"
      submit={t(inherited ? "override.submit" : "targets.submit")}
      header={
        <>
          <TableHead scope="col">{t("targets.priority")}</TableHead>
          <TableHead scope="col" colSpan={2}>
            {t("targets.response")}
          </TableHead>
          <TableHead scope="col" colSpan={2}>
            {t("targets.resolution")}
          </TableHead>
        </>
      }
    >
      {TARGET_PRIORITIES.map((key) => {
        const row = fields[key].getFieldset();
        const priority = t(`priorities.${key}`);
        const entity = inherited?.[key];
        return (
          <TableRow
            key={key}
            className="max-sm:grid max-sm:grid-cols-[5rem_1fr] max-sm:gap-x-2 max-sm:py-2"
          >
            <TableHead
              scope="row"
              className="font-medium max-sm:col-span-2 max-sm:h-auto max-sm:px-0"
            >
              {priority}
            </TableHead>
            {(["response", "resolution"] as const).map((side) => (
              <TargetCells
                key={side}
                target={t(`targets.${side}`)}
                priority={priority}
                hours={row[`${side}Hours`]}
                clock={row[`${side}Clock`]}
                inherited={entity && inheritedText(entity[`${side}Minutes`], entity[`${side}Clock`])}
              />
            ))}
          </TableRow>
        );
      })}
    </TableForm>
  );
}

/**
 * A cell of the week's or the targets' table: a column on wider screens; on phones, where the header row
 * is hidden, a grid cell captioned with its column's name (opens at, response, ...).
 */
const captioned =
  "sm:min-w-24 max-sm:px-0 max-sm:py-1 max-sm:before:block max-sm:before:pb-1 max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-caption)]";

/** A captioned cell with one input of the row, labelled for screen readers, its errors under it. */
function InputCell({
  field,
  type,
  caption,
  label,
  errors,
  inputMode,
  hint,
}: {
  field: Parameters<typeof getInputProps>[0];
  type: "time" | "text";
  caption: string;
  label: string;
  errors?: string[] | null;
  inputMode?: "decimal";
  /** A line under the input, read with it (an override's: the entity's target). */
  hint?: string;
}) {
  const props = getInputProps(field, { type });
  const hintId = `${field.id}-hint`;
  return (
    <TableCell className={captioned} data-caption={caption}>
      <Input
        {...props}
        inputMode={inputMode}
        aria-label={label}
        aria-describedby={
          hint
            ? [hintId, props["aria-describedby"]].filter(Boolean).join(" ")
            : props["aria-describedby"]
        }
      />
      {hint ? (
        <p id={hintId} className="pt-1 text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <ErrorText id={field.errorId} errors={errors} />
    </TableCell>
  );
}

/** The two cells of one target of a priority (response or resolution): its hours and its clock. */
function TargetCells({
  target,
  priority,
  hours,
  clock,
  inherited,
}: {
  target: string;
  priority: string;
  hours: Parameters<typeof getInputProps>[0];
  clock: Parameters<typeof getSelectProps>[0];
  /** An override's: the entity's target, which applies while the hours are empty. */
  inherited?: string;
}) {
  const { t } = useTranslation("serviceLevels");
  const text = useErrorText(NS);
  return (
    <>
      <InputCell
        field={hours}
        type="text"
        inputMode="decimal"
        caption={target}
        label={t("targets.hours", { target, priority })}
        errors={text(hours.errors)}
        hint={inherited}
      />
      <TableCell className={captioned} data-caption={target}>
        <ClockSelect
          field={clock}
          label={t("targets.clock", { target, priority })}
          errors={text(clock.errors)}
        />
      </TableCell>
    </>
  );
}

function ClockSelect({
  field,
  label,
  errors,
}: {
  field: Parameters<typeof getSelectProps>[0];
  label: string;
  errors?: string[] | null;
}) {
  const { t } = useTranslation("serviceLevels");
  return (
    <>
      <Select {...getSelectProps(field)} aria-label={label}>
        <Options values={CLOCK_KINDS} label={(kind) => t(`clocks.${kind}`)} />
      </Select>
      <ErrorText id={field.errorId} errors={errors} />
    </>
  );
}

/** How long before a breach people are warned, in minutes (empty: nobody). */
export function WarningForm({
  warnBeforeMinutes,
  lastResult,
}: {
  warnBeforeMinutes: number | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("serviceLevels");
  const text = useErrorText(NS);
  const [form, fields] = useZodForm(validateWarning, {
    id: "service-levels-warning",
    lastResult,
    defaultValue: {
      warnBeforeMinutes:
        warnBeforeMinutes === null ? "" : String(warnBeforeMinutes),
    },
  });
  return (
    <IntentForm
      form={form}
      intent="warning"
      className="grid gap-4 sm:grid-cols-[16rem_auto] sm:items-start"
      errorsClassName="sm:col-span-2"
    >
      <Field
        label={t("warning.minutes")}
        htmlFor={fields.warnBeforeMinutes.id}
        errors={text(fields.warnBeforeMinutes.errors)}
        description={t("warning.hint")}
      >
        <Input
          {...getInputProps(fields.warnBeforeMinutes, { type: "number" })}
          min={1}
          max={MAX_WARNING_MINUTES}
          step={1}
        />
      </Field>
      <SubmitButton intent="warning" className="sm:mt-8">
        {t("warning.submit")}
      </SubmitButton>
    </IntentForm>
  );
}

/** The address of an incident type's service levels (its own targets). */
export const typeServiceLevels = (id: number) =>
  `${SERVICE_LEVELS}/incident-types/${id}`;

/** The query parameter of the settings screen's incident type choice (a GET form, redirected to the type's screen). */
export const TYPE_PARAM = "type";

/**
 * The incident types that set targets of their own, each linking to its screen, and a choice of any
 * active type to set its targets: a GET form, so it works without JavaScript.
 */
export function TypeOverrides({
  overrides,
  types,
}: {
  overrides: { id: number; name: string; priorities: number }[];
  types: { id: number; name: string }[];
}) {
  const { t } = useTranslation("serviceLevels");
  return (
    <>
      {overrides.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("types.empty")}</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{t("types.name")}</TableHead>
              <TableHead scope="col">{t("types.ownTargets")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {overrides.map((type) => (
              <TableRow key={type.id}>
                <TableCell>
                  <Link
                    to={typeServiceLevels(type.id)}
                    className="font-medium underline-offset-4 hover:underline"
                  >
                    {type.name}
                  </Link>
                </TableCell>
                <TableCell>
                  {t("types.priorities", { count: type.priorities })}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {types.length > 0 ? (
        <Form
          method="get"
          action={SERVICE_LEVELS}
          className="grid gap-3 border-t pt-6 sm:grid-cols-[minmax(0,20rem)_auto] sm:items-end"
        >
          <Field label={t("types.choose")} htmlFor="service-levels-type">
            <Select id="service-levels-type" name={TYPE_PARAM}>
              <Options values={types} />
            </Select>
          </Field>
          <button
            type="submit"
            className={buttonVariants({ variant: "outline" })}
          >
            {t("types.open")}
          </button>
        </Form>
      ) : null}
    </>
  );
}

/** Removes every target of an incident type (`intent=clearOverride`): the entity's apply again. */
export function ClearOverrideForm() {
  const { t } = useTranslation("serviceLevels");
  return (
    <Form method="post" className="grid gap-3 sm:justify-items-start">
      <input type="hidden" name="intent" value="clearOverride" />
      <p className="text-sm text-muted-foreground">
        {t("override.clearDescription")}
      </p>
      <SubmitButton intent="clearOverride" variant="destructive">
        {t("override.clear")}
      </SubmitButton>
    </Form>
  );
}
