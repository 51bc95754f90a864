import {
  getFormProps,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
} from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  CheckboxField,
  DefaultSubmit,
  SubmitButton,
} from "~/components/forms/form-parts";
import {
  ErrorText,
  FormErrors,
  useErrorText,
  useZodForm,
  zodValidator,
} from "~/components/forms/zod-form";
import { buttonVariants } from "~/components/ui/button";
import {
  Dialog,
  DialogFooter,
  DialogTrigger,
  useUrlDialog,
} from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import type { OpeningInterval } from "~/modules/service-levels/calendar";
import {
  CLOCK_KINDS,
  HOLIDAY_LANGUAGES,
  hoursOf,
  MAX_HOLIDAY_YEAR,
  MAX_WARNING_MINUTES,
  MIN_HOLIDAY_YEAR,
  TARGET_PRIORITIES,
  timeOf,
  WEEKDAYS,
} from "~/modules/service-levels/values";

/**
 * The forms of /administration/service-levels (issue 62): plain posts told apart by `intent`, validated
 * in the browser with the verbs' schemas once JavaScript has loaded them (decision 021), and by the
 * server always; a refused post comes back with the input kept and the errors beside the fields.
 */

export const SERVICE_LEVELS = "/administration/service-levels";

const NS = ["serviceLevels"];

const loadSchemas = () => import("~/modules/service-levels/schema");
const validateWeek = zodValidator(() =>
  loadSchemas().then((m) => m.WorkingWeekSchema)
);
const validateClosedDay = zodValidator(() =>
  loadSchemas().then((m) => m.ClosedDaySchema)
);
const validateHolidays = zodValidator(() =>
  loadSchemas().then((m) => m.PublicHolidaysSchema)
);
const validateTargets = zodValidator(() =>
  loadSchemas().then((m) => m.TargetsSchema)
);
const validateWarning = zodValidator(() =>
  loadSchemas().then((m) => m.WarningLeadSchema)
);

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
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="week" />
      <FormErrors id={form.errorId} errors={form.errors} ns={NS} />
      <DefaultSubmit />
      <Table className="max-sm:block max-sm:[&_tbody]:block">
        <TableHeader className="max-sm:hidden">
          <TableRow>
            <TableHead scope="col">{t("week.day")}</TableHead>
            <TableHead scope="col">{t("week.open")}</TableHead>
            <TableHead scope="col">{t("week.opens")}</TableHead>
            <TableHead scope="col">{t("week.closes")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
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
                <TableCell className={captioned} data-caption={t("week.opens")}>
                  <Input
                    {...getInputProps(day.opens, { type: "time" })}
                    aria-label={t("week.opensOn", { day: dayName })}
                  />
                  <ErrorText
                    id={day.opens.errorId}
                    errors={text(day.opens.errors)}
                  />
                </TableCell>
                <TableCell
                  className={captioned}
                  data-caption={t("week.closes")}
                >
                  <Input
                    {...getInputProps(day.closes, { type: "time" })}
                    aria-label={t("week.closesOn", { day: dayName })}
                  />
                  <ErrorText
                    id={day.closes.errorId}
                    errors={text(day.closes.errors)}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <div className="flex justify-end">
        <SubmitButton intent="week">{t("week.submit")}</SubmitButton>
      </div>
    </Form>
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
    <Form
      method="post"
      {...getFormProps(form)}
      className="grid gap-4 sm:grid-cols-[auto_1fr_auto] sm:items-start"
    >
      <input type="hidden" name="intent" value="addClosedDay" />
      <FormErrors
        id={form.errorId}
        errors={form.errors}
        ns={NS}
        className="sm:col-span-3"
      />
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
    </Form>
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
    <Form
      method="post"
      {...getFormProps(form)}
      className="grid gap-4 sm:grid-cols-[8rem_12rem_auto] sm:items-start"
    >
      <input type="hidden" name="intent" value="holidays" />
      <FormErrors
        id={form.errorId}
        errors={form.errors}
        ns={NS}
        className="sm:col-span-3"
      />
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
          {HOLIDAY_LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {t(`languages.${code}`)}
            </option>
          ))}
        </Select>
      </Field>
      <SubmitButton intent="holidays" className="sm:mt-8">
        {t("holidays.submit")}
      </SubmitButton>
    </Form>
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

/** The targets of the five priorities: response and resolution, in hours, each with its clock. */
export function TargetsForm({
  targets,
  lastResult,
}: {
  targets: Record<string, TargetRowValue>;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("serviceLevels");
  const text = useErrorText(NS);
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
    id: "service-levels-targets",
    lastResult,
    defaultValue,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="targets" />
      <FormErrors id={form.errorId} errors={form.errors} ns={NS} />
      <DefaultSubmit />
      <Table className="max-sm:block max-sm:[&_tbody]:block">
        <TableHeader className="max-sm:hidden">
          <TableRow>
            <TableHead scope="col">{t("targets.priority")}</TableHead>
            <TableHead scope="col" colSpan={2}>
              {t("targets.response")}
            </TableHead>
            <TableHead scope="col" colSpan={2}>
              {t("targets.resolution")}
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {TARGET_PRIORITIES.map((key) => {
            const row = fields[key].getFieldset();
            const priority = t(`priorities.${key}`);
            const response = t("targets.response");
            const resolution = t("targets.resolution");
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
                <TableCell className={captioned} data-caption={response}>
                  <Input
                    {...getInputProps(row.responseHours, { type: "text" })}
                    inputMode="decimal"
                    aria-label={t("targets.hours", {
                      target: response,
                      priority,
                    })}
                  />
                  <ErrorText
                    id={row.responseHours.errorId}
                    errors={text(row.responseHours.errors)}
                  />
                </TableCell>
                <TableCell className={captioned} data-caption={response}>
                  <ClockSelect
                    field={row.responseClock}
                    label={t("targets.clock", { target: response, priority })}
                    errors={text(row.responseClock.errors)}
                  />
                </TableCell>
                <TableCell className={captioned} data-caption={resolution}>
                  <Input
                    {...getInputProps(row.resolutionHours, { type: "text" })}
                    inputMode="decimal"
                    aria-label={t("targets.hours", {
                      target: resolution,
                      priority,
                    })}
                  />
                  <ErrorText
                    id={row.resolutionHours.errorId}
                    errors={text(row.resolutionHours.errors)}
                  />
                </TableCell>
                <TableCell className={captioned} data-caption={resolution}>
                  <ClockSelect
                    field={row.resolutionClock}
                    label={t("targets.clock", { target: resolution, priority })}
                    errors={text(row.resolutionClock.errors)}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <div className="flex justify-end">
        <SubmitButton intent="targets">{t("targets.submit")}</SubmitButton>
      </div>
    </Form>
  );
}

/**
 * A cell of the week's or the targets' table: a column on wider screens; on phones, where the header row
 * is hidden, a grid cell captioned with its column's name (opens at, response, ...).
 */
const captioned =
  "sm:min-w-24 max-sm:px-0 max-sm:py-1 max-sm:before:block max-sm:before:pb-1 max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-caption)]";

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
        {CLOCK_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {t(`clocks.${kind}`)}
          </option>
        ))}
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
    <Form
      method="post"
      {...getFormProps(form)}
      className="grid gap-4 sm:grid-cols-[16rem_auto] sm:items-start"
    >
      <input type="hidden" name="intent" value="warning" />
      <FormErrors
        id={form.errorId}
        errors={form.errors}
        ns={NS}
        className="sm:col-span-2"
      />
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
    </Form>
  );
}
