import { getFormProps, getInputProps, getSelectProps, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms/form-parts";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { useViewDialog } from "~/components/incidents/view/format";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogFooter, DialogTrigger } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { EDIT_ENTRY_PARAM, EDIT_LINE_PARAM, ENTRY_PARAM, LINE_PARAM, VIEW_INTENTS, WORK_SECTION } from "~/lib/incident-view";
import { numberFormat } from "~/lib/intl";
import { moneyFormatter } from "~/lib/money";
import { useDates } from "~/lib/use-dates";
import { MATERIAL_DESCRIPTION_MAX, MAX_ENTRY_MINUTES, TIME_NOTE_MAX } from "~/modules/time-costs/constants";
import type { RecordWork, MaterialLineRow, TimeEntryRow } from "~/modules/time-costs/queries.server";
import { Options } from "~/components/ui/options";

// The schemas arrive lazily, on the first interaction with a form (decision 021): no zod in the page.
const timeValidator = zodValidator(() => import("~/modules/time-costs/schema").then((m) => m.TimeEntrySchema));
const materialValidator = zodValidator(() => import("~/modules/time-costs/schema").then((m) => m.MaterialLineSchema));

const NS = ["timeCosts", "incidentView"];

/** The page as it is (dialogs closed) with `key=value` added, at the section. */
const withParam = (page: string, key: string, value: number) => `${page}${page.includes("?") ? "&" : "?"}${key}=${value}#${WORK_SECTION}`;

/** "Edit" and "Delete" of an entry or a line the viewer may change. */
function RowActions({ editTo, deleteTo, editLabel, deleteLabel }: { editTo: string; deleteTo: string; editLabel: string; deleteLabel: string }) {
  const { t } = useTranslation("timeCosts");
  return (
    <span className="flex justify-end gap-3">
      <Link to={editTo} preventScrollReset className="text-sm font-medium text-primary underline-offset-4 hover:underline" aria-label={editLabel}>
        {t("edit")}
      </Link>
      <DialogTrigger to={deleteTo} variant="link" size="sm" className="h-auto p-0 text-destructive" aria-label={deleteLabel}>
        {t("time.delete")}
      </DialogTrigger>
    </span>
  );
}

/** "1 h 30 min", "45 min" in the page's language. */
export function useDuration() {
  const { t } = useTranslation("timeCosts");
  return (total: number) => {
    const hours = Math.floor(total / 60);
    const minutes = total % 60;
    return hours ? t("duration", { hours, minutes }) : t("durationMinutes", { minutes });
  };
}

/** Amounts in the entity's currency and quantities, in the page's language. */
export function useAmounts(currency: string) {
  const { i18n } = useTranslation();
  const quantity = numberFormat(i18n.language, { maximumFractionDigits: 3 });
  return { money: moneyFormatter(currency, i18n.language), quantity: (value: string) => quantity.format(Number(value)) };
}

/**
 * The "Time and materials" section of an incident or a task (issue 62): the time entries and material
 * lines with their totals, the viewer's clock (start and stop), and two plain forms to record time and
 * add material; delete buttons open a confirmation. Every form posts to the page's own address (its
 * search kept: the task view names its task there), whose action answers the intents of
 * app/http/work-actions.server.ts.
 */
export function WorkSection({
  record,
  place,
  work,
  today,
  timeResult,
  materialResult,
  updateTimeResult,
  updateMaterialResult,
}: {
  record: "incident" | "task";
  /** Which of the page's records the section is of (the task view lists several locations). */
  place?: string;
  work: RecordWork;
  today: string;
  timeResult?: SubmissionResult<string[]>;
  materialResult?: SubmissionResult<string[]>;
  updateTimeResult?: SubmissionResult<string[]>;
  updateMaterialResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("timeCosts");
  const params = new URLSearchParams(useLocation().search);
  // `?editEntry=5`: that entry's form (if the viewer may correct it) in place of the add form.
  const editedEntry = work.entries.find((e) => e.editable && String(e.id) === params.get(EDIT_ENTRY_PARAM));
  const editedLine = work.lines.find((l) => l.editable && String(l.id) === params.get(EDIT_LINE_PARAM));
  return (
    <Card id={WORK_SECTION}>
      <CardHeader>
        <CardTitle as="h2">{t("title")}</CardTitle>
        {place ? <p className="text-sm font-medium">{place}</p> : null}
        <CardDescription>{record === "task" ? t("introTask") : t("intro")}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-8">
        <WorkClock work={work} />
        <TimeTable work={work} />
        {editedEntry ? (
          <RecordTime key={`edit-time-${editedEntry.id}`} work={work} today={today} lastResult={updateTimeResult} entry={editedEntry} />
        ) : work.canRecord ? (
          <RecordTime key={`time-${work.entries.length}-${work.totals.minutes}`} work={work} today={today} lastResult={timeResult} />
        ) : null}
        <MaterialTable work={work} />
        {editedLine ? (
          <AddMaterial key={`edit-line-${editedLine.id}`} currency={work.currency} lastResult={updateMaterialResult} line={editedLine} />
        ) : work.canRecord ? (
          <AddMaterial key={`material-${work.lines.length}-${work.totals.materials}`} currency={work.currency} lastResult={materialResult} />
        ) : null}
        <WorkTotals work={work} />
      </CardContent>
    </Card>
  );
}

/**
 * The viewer's clock (decision 065): "Start" while none runs, "Running since 10:14" and "Stop" while it
 * runs here, a note while it runs on another record (one clock per person). A plain post each.
 */
function WorkClock({ work }: { work: RecordWork }) {
  const { t } = useTranslation("timeCosts");
  const dates = useDates();
  if (!work.canRecord) return null;
  const clock = work.clock;
  const intent = clock?.here ? VIEW_INTENTS.stopClock : VIEW_INTENTS.startClock;
  return (
    <section className="grid gap-2" aria-labelledby="work-clock-title">
      <h3 id="work-clock-title" className="text-base font-semibold">
        {t("clock.title")}
      </h3>
      {clock && !clock.here ? (
        <p className="text-sm text-muted-foreground" role="status">
          {t("clock.runningElsewhere", { time: dates.time(clock.startedAt) })}
        </p>
      ) : (
        <Form method="post" className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value={intent} />
          {clock ? (
            <p className="text-sm font-medium" role="status" data-testid="work-clock-running">
              {t("clock.runningSince", { time: dates.time(clock.startedAt) })}
            </p>
          ) : (
            <p className="text-sm text-muted-foreground">{t("clock.hint")}</p>
          )}
          <SubmitButton intent={intent}>
            {clock ? t("clock.stop") : t("clock.start")}
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}

/**
 * A titled table of the work (time entries, material lines) with a last column for the row actions and
 * a footer row with the total; `empty` (a sentence) stands in its place while there are no rows.
 */
function WorkTable({
  titleId,
  title,
  empty,
  header,
  actions,
  totalLabel,
  totalSpan,
  total,
  extraTotal,
  children,
}: {
  titleId: string;
  title: string;
  empty: string | null;
  header: ReactNode;
  actions: string;
  totalLabel: string;
  totalSpan: number;
  total: string;
  /** A second total, in the column after the first (the time's labour cost). */
  extraTotal?: string;
  children: ReactNode;
}) {
  return (
    <section className="grid gap-3" aria-labelledby={titleId}>
      <h3 id={titleId} className="text-base font-semibold">
        {title}
      </h3>
      {empty === null ? (
        <Table>
          <TableHeader>
            <TableRow>
              {header}
              <TableHead scope="col">
                <span className="sr-only">{actions}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>{children}</TableBody>
          <tfoot className="border-t bg-muted/40">
            <TableRow>
              <TableHead scope="row" colSpan={totalSpan}>
                {totalLabel}
              </TableHead>
              <TableCell className="whitespace-nowrap text-right font-semibold tabular-nums">{total}</TableCell>
              {extraTotal === undefined ? null : <TableCell className="whitespace-nowrap text-right font-semibold tabular-nums">{extraTotal}</TableCell>}
              <TableCell colSpan={2} />
            </TableRow>
          </tfoot>
        </Table>
      ) : (
        <p className="text-sm text-muted-foreground">{empty}</p>
      )}
    </section>
  );
}

function TimeTable({ work }: { work: RecordWork }) {
  const { t } = useTranslation("timeCosts");
  const dates = useDates();
  const duration = useDuration();
  const { money } = useAmounts(work.currency);
  const dialog = useViewDialog("delete-time");
  return (
    <WorkTable
      titleId="work-time-title"
      title={t("time.title")}
      empty={work.entries.length ? null : t("time.empty")}
      header={
        <>
          <TableHead scope="col">{t("time.workedOn")}</TableHead>
          <TableHead scope="col">{t("time.person")}</TableHead>
          <TableHead scope="col" className="text-right">
            {t("time.duration")}
          </TableHead>
          <TableHead scope="col" className="text-right">
            {t("time.cost")}
          </TableHead>
          <TableHead scope="col">{t("time.note")}</TableHead>
        </>
      }
      actions={t("time.actions")}
      totalLabel={t("time.total")}
      totalSpan={2}
      total={duration(work.totals.minutes)}
      extraTotal={work.totals.labour === null ? "" : money(work.totals.labour)}
    >
      {work.entries.map((entry: TimeEntryRow) => (
        <TableRow key={entry.id}>
          <TableCell className="whitespace-nowrap">
            <time dateTime={entry.workedOn}>{dates.day(entry.workedOn)}</time>
          </TableCell>
          <TableCell>{entry.person.name}</TableCell>
          <TableCell className="whitespace-nowrap text-right tabular-nums">{duration(entry.minutes)}</TableCell>
          <TableCell className="whitespace-nowrap text-right tabular-nums">
            {entry.costHidden ? null : entry.cost === null ? <span className="text-muted-foreground">{t("time.noRate")}</span> : money(entry.cost)}
          </TableCell>
          <TableCell className="max-w-xs whitespace-pre-wrap break-words">{entry.note}</TableCell>
          <TableCell className="text-right">
            {entry.editable ? (
              <RowActions
                editTo={withParam(dialog.closeTo, EDIT_ENTRY_PARAM, entry.id)}
                deleteTo={dialog.openTo({ [ENTRY_PARAM]: entry.id })}
                editLabel={t("time.editLabel", { name: entry.person.name, day: dates.day(entry.workedOn) })}
                deleteLabel={t("time.deleteLabel", { name: entry.person.name, day: dates.day(entry.workedOn) })}
              />
            ) : null}
          </TableCell>
        </TableRow>
      ))}
    </WorkTable>
  );
}

function MaterialTable({ work }: { work: RecordWork }) {
  const { t } = useTranslation("timeCosts");
  const { money, quantity } = useAmounts(work.currency);
  const dialog = useViewDialog("delete-material");
  return (
    <WorkTable
      titleId="work-material-title"
      title={t("material.title")}
      empty={work.lines.length ? null : t("material.empty")}
      header={
        <>
          <TableHead scope="col">{t("material.description")}</TableHead>
          <TableHead scope="col" className="text-right">
            {t("material.quantity")}
          </TableHead>
          <TableHead scope="col" className="text-right">
            {t("material.unitCost")}
          </TableHead>
          <TableHead scope="col" className="text-right">
            {t("material.lineTotal")}
          </TableHead>
          <TableHead scope="col">{t("material.addedBy")}</TableHead>
        </>
      }
      actions={t("material.actions")}
      totalLabel={t("material.total")}
      totalSpan={3}
      total={money(work.totals.materials)}
    >
      {work.lines.map((line: MaterialLineRow) => (
        <TableRow key={line.id}>
          <TableCell className="max-w-xs break-words">{line.description}</TableCell>
          <TableCell className="text-right tabular-nums">{quantity(line.quantity)}</TableCell>
          <TableCell className="whitespace-nowrap text-right tabular-nums">{money(line.unitCost)}</TableCell>
          <TableCell className="whitespace-nowrap text-right tabular-nums">{money(line.total)}</TableCell>
          <TableCell>{line.addedBy?.name}</TableCell>
          <TableCell className="text-right">
            {line.editable ? (
              <RowActions
                editTo={withParam(dialog.closeTo, EDIT_LINE_PARAM, line.id)}
                deleteTo={dialog.openTo({ [LINE_PARAM]: line.id })}
                editLabel={t("material.editLabel", { description: line.description })}
                deleteLabel={t("material.deleteLabel", { description: line.description })}
              />
            ) : null}
          </TableCell>
        </TableRow>
      ))}
    </WorkTable>
  );
}

/** The form that records time, or (`entry`) corrects an entry. */
function RecordTime({ work, today, lastResult, entry }: { work: RecordWork; today: string; lastResult?: SubmissionResult<string[]>; entry?: TimeEntryRow }) {
  const { t } = useTranslation("timeCosts");
  const text = useErrorText(NS);
  const { closeTo } = useViewDialog("delete-time");
  const intent = entry ? VIEW_INTENTS.updateTime : VIEW_INTENTS.recordTime;
  const defaultValue = entry
    ? { workedOn: entry.workedOn, hours: String(Math.floor(entry.minutes / 60)), minutes: String(entry.minutes % 60), note: entry.note ?? "", userId: String(entry.person.id) }
    : { workedOn: today };
  const [form, fields] = useZodForm(timeValidator, { id: entry ? `edit-time-${entry.id}` : "record-time", lastResult, defaultValue });
  // The entry's person stays offered even if they no longer reach the incident.
  const people = entry && !work.people.some((p) => p.id === entry.person.id) ? [...work.people, entry.person] : work.people;
  return (
    <WorkForm
      form={form}
      title={entry ? t("time.edit") : t("time.add")}
      intent={intent}
      edited={entry ? { name: ENTRY_PARAM, id: entry.id } : null}
      submit={entry ? t("save") : t("time.submit")}
      cancelTo={entry ? `${closeTo}#${WORK_SECTION}` : null}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {work.people.length ? (
          <Field label={t("time.person")} htmlFor={fields.userId.id} errors={text(fields.userId.errors)}>
            <Select {...getSelectProps(fields.userId)}>
              <option value="">{t("time.self")}</option>
              <Options values={people} />
            </Select>
          </Field>
        ) : null}
        <Field label={t("time.workedOn")} htmlFor={fields.workedOn.id} errors={text(fields.workedOn.errors)} required>
          <Input {...getInputProps(fields.workedOn, { type: "date" })} max={today} />
        </Field>
      </div>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="sr-only">{t("time.duration")}</legend>
        <Field label={t("time.hours")} htmlFor={fields.hours.id} errors={text(fields.hours.errors)} description={t("time.durationHint")}>
          <Input {...getInputProps(fields.hours, { type: "number" })} min={0} max={24} step={1} inputMode="numeric" />
        </Field>
        <Field label={t("time.minutes")} htmlFor={fields.minutes.id} errors={text(fields.minutes.errors)}>
          <Input {...getInputProps(fields.minutes, { type: "number" })} min={0} max={MAX_ENTRY_MINUTES} step={1} inputMode="numeric" />
        </Field>
      </fieldset>
      <Field label={t("time.note")} htmlFor={fields.note.id} errors={text(fields.note.errors)}>
        <Input {...getInputProps(fields.note, { type: "text" })} maxLength={TIME_NOTE_MAX} autoComplete="off" />
      </Field>
    </WorkForm>
  );
}

/**
 * The incident's costs: labour (the entries with a rate; "partial" when some have none), materials and
 * their total, in the entity's currency. Labour and total are left out for a technician while
 * colleagues' time counts in them (decision 065).
 */
function WorkTotals({ work }: { work: RecordWork }) {
  const { t } = useTranslation("timeCosts");
  const { money } = useAmounts(work.currency);
  if (!work.entries.length && !work.lines.length) return null;
  const { labour, total } = work.totals;
  const rows: [string, string, string | null][] = [
    ...(labour === null ? [] : [[t("totals.labour"), money(labour), work.totals.unpricedEntries ? t("totals.labourPartial", { count: work.totals.unpricedEntries }) : null] as [string, string, string | null]]),
    [t("totals.materials"), money(work.totals.materials), null],
    ...(total === null ? [] : [[t("totals.total"), money(total), null] as [string, string, string | null]]),
  ];
  return (
    <section className="grid gap-3 border-t pt-4" aria-labelledby="work-totals-title">
      <h3 id="work-totals-title" className="text-base font-semibold">
        {t("totals.title")}
      </h3>
      <dl className="grid max-w-md gap-2 text-sm">
        {rows.map(([label, amount, note], index) => (
          <div key={label} className={`grid grid-cols-[1fr_auto] gap-x-4 ${index === rows.length - 1 ? "border-t pt-2 font-semibold" : ""}`}>
            <dt>{label}</dt>
            <dd className="text-right tabular-nums">{amount}</dd>
            {note ? <dd className="col-span-2 text-xs text-muted-foreground">{note}</dd> : null}
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The form that adds a material line, or (`line`) corrects one. */
function AddMaterial({ currency, lastResult, line }: { currency: string; lastResult?: SubmissionResult<string[]>; line?: MaterialLineRow }) {
  const { t } = useTranslation("timeCosts");
  const text = useErrorText(NS);
  const { closeTo } = useViewDialog("delete-material");
  const intent = line ? VIEW_INTENTS.updateMaterial : VIEW_INTENTS.addMaterial;
  const defaultValue = line ? { description: line.description, quantity: String(Number(line.quantity)), unitCost: line.unitCost } : undefined;
  const [form, fields] = useZodForm(materialValidator, { id: line ? `edit-line-${line.id}` : "add-material", lastResult, defaultValue });
  return (
    <WorkForm
      form={form}
      title={line ? t("material.edit") : t("material.add")}
      intent={intent}
      edited={line ? { name: LINE_PARAM, id: line.id } : null}
      submit={line ? t("save") : t("material.submit")}
      cancelTo={line ? `${closeTo}#${WORK_SECTION}` : null}
    >
      <Field label={t("material.description")} htmlFor={fields.description.id} errors={text(fields.description.errors)} required>
        <Input {...getInputProps(fields.description, { type: "text" })} maxLength={MATERIAL_DESCRIPTION_MAX} autoComplete="off" />
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label={t("material.quantity")} htmlFor={fields.quantity.id} errors={text(fields.quantity.errors)} description={t("material.decimalHint")} required>
          <Input {...getInputProps(fields.quantity, { type: "text" })} inputMode="decimal" autoComplete="off" />
        </Field>
        <Field label={`${t("material.unitCost")} (${currency})`} htmlFor={fields.unitCost.id} errors={text(fields.unitCost.errors)} required>
          <Input {...getInputProps(fields.unitCost, { type: "text" })} inputMode="decimal" autoComplete="off" />
        </Field>
      </div>
    </WorkForm>
  );
}

/**
 * A titled form that records work or (`edited`: which entry or line) corrects it, its errors first and
 * its buttons last; a correction can be cancelled.
 */
function WorkForm({
  form,
  title,
  intent,
  edited,
  submit,
  cancelTo,
  children,
}: {
  form: FormMetadata;
  title: string;
  intent: string;
  edited: { name: string; id: number } | null;
  submit: string;
  cancelTo: string | null;
  children: ReactNode;
}) {
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3 border-t pt-4">
      <h3 className="text-base font-semibold">{title}</h3>
      <input type="hidden" name="intent" value={intent} />
      {edited ? <input type="hidden" name={edited.name} value={edited.id} /> : null}
      <FormErrors id={form.errorId} errors={form.errors} ns={NS} />
      {children}
      <FormButtons intent={intent} label={submit} cancelTo={cancelTo} />
    </Form>
  );
}

function FormButtons({ intent, label, cancelTo }: { intent: string; label: string; cancelTo: string | null }) {
  const { t } = useTranslation("timeCosts");
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row">
      <SubmitButton intent={intent}>{label}</SubmitButton>
      {cancelTo ? (
        <Link to={cancelTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
          {t("common:actions.cancel")}
        </Link>
      ) : null}
    </div>
  );
}

/** `?dialog=delete-time&entry=<id>` and `?dialog=delete-material&line=<id>`: the confirmations before deleting. */
export function DeleteWorkDialogs({ work }: { work: RecordWork }) {
  const { t } = useTranslation("timeCosts");
  const dates = useDates();
  const duration = useDuration();
  const { money, quantity } = useAmounts(work.currency);
  const timeDialog = useViewDialog("delete-time");
  const lineDialog = useViewDialog("delete-material");
  const entry = work.entries.find((e) => e.editable && String(e.id) === timeDialog.params.get(ENTRY_PARAM));
  const line = work.lines.find((l) => l.editable && String(l.id) === lineDialog.params.get(LINE_PARAM));
  return (
    <>
      <Dialog
        open={timeDialog.open && Boolean(entry)}
        closeTo={`${timeDialog.closeTo}#${WORK_SECTION}`}
        title={t("time.deleteTitle")}
        description={t("time.deleteText")}
        closeLabel={t("common:actions.close")}
        size="sm"
      >
        {entry ? (
          <p className="mb-4 text-sm">
            {entry.person.name} · {dates.day(entry.workedOn)} · {duration(entry.minutes)}
          </p>
        ) : null}
        <DeleteForm intent={VIEW_INTENTS.deleteTime} name={ENTRY_PARAM} id={entry?.id} closeTo={`${timeDialog.closeTo}#${WORK_SECTION}`} label={t("time.delete")} />
      </Dialog>
      <Dialog
        open={lineDialog.open && Boolean(line)}
        closeTo={`${lineDialog.closeTo}#${WORK_SECTION}`}
        title={t("material.deleteTitle")}
        description={t("material.deleteText")}
        closeLabel={t("common:actions.close")}
        size="sm"
      >
        {line ? (
          <p className="mb-4 break-words text-sm">
            {line.description} · {quantity(line.quantity)} × {money(line.unitCost)}
          </p>
        ) : null}
        <DeleteForm intent={VIEW_INTENTS.deleteMaterial} name={LINE_PARAM} id={line?.id} closeTo={`${lineDialog.closeTo}#${WORK_SECTION}`} label={t("material.delete")} />
      </Dialog>
    </>
  );
}

function DeleteForm({ intent, name, id, closeTo, label }: { intent: string; name: string; id?: number; closeTo: string; label: string }) {
  const { t } = useTranslation("timeCosts");
  return (
    <Form method="post" className="grid gap-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={name} value={id ?? ""} />
      <DialogFooter className="mt-2">
        <Link to={closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
          {t("common:actions.cancel")}
        </Link>
        <SubmitButton intent={intent} variant="destructive">
          {label}
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}
