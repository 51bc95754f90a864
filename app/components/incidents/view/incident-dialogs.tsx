import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms/form-parts";
import { ErrorText, FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Button, buttonVariants } from "~/components/ui/button";
import { Dialog, DialogFooter } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { ASSIGNEE_PAGE_PARAM, ASSIGNEE_Q_PARAM, type ViewDialog, VIEW_INTENTS, type ViewIntent } from "~/lib/incident-view";
import { MAX_TAGS } from "~/lib/limits";
import type { Page } from "~/lib/list-query";
import { DESCRIPTION_MAX, SETTABLE_STATUSES, TITLE_MAX } from "~/modules/incidents/constants";
import { priorityLabel, useViewDialog } from "./format";
import type { IncidentView } from "./incident-header";
import { textOf } from "~/lib/text";
import { Options } from "~/components/ui/options";

const schemas = () => import("~/modules/incidents/schema");
const statusValidator = zodValidator(() => schemas().then((m) => m.SetStatusSchema));
const priorityValidator = zodValidator(() => schemas().then((m) => m.SetPrioritySchema));
const assignValidator = zodValidator(() => schemas().then((m) => m.AssignSchema));
const tagValidator = zodValidator(() => schemas().then((m) => m.TagSchema));
const titleValidator = zodValidator(() => schemas().then((m) => m.TitleSchema));
const descriptionValidator = zodValidator(() => schemas().then((m) => m.DescriptionSchema));
const duplicateValidator = zodValidator(() => schemas().then((m) => m.DuplicateSchema));

export interface AssigneeOption {
  id: number;
  name: string;
  role: number;
}

type ResultFor = (intent: ViewIntent) => SubmissionResult<string[]> | undefined;

/** A dialog of the view: open at `?dialog=<name>`, closed by a link back to the page. */
function ViewDialogFrame({
  name,
  title,
  description,
  children,
}: {
  name: ViewDialog;
  title: string;
  description?: ReactNode;
  children: (closeTo: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const dialog = useViewDialog(name);
  return (
    <Dialog open={dialog.open} closeTo={dialog.closeTo} title={title} description={description} closeLabel={t("actions.close")} size="md">
      {children(dialog.closeTo)}
    </Dialog>
  );
}

function Footer({ closeTo, intent, label }: { closeTo: string; intent: ViewIntent; label: string }) {
  const { t } = useTranslation();
  return (
    <DialogFooter className="mt-2">
      <Link to={closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
        {t("actions.cancel")}
      </Link>
      <SubmitButton intent={intent}>{label}</SubmitButton>
    </DialogFooter>
  );
}

/** The dialogs of SPEC.md section 2 on the incident view, each a plain POST form with its `intent`. */
export function IncidentDialogs({
  incident,
  assignees,
  assigneeQ,
  resultFor,
}: {
  incident: IncidentView;
  assignees: Page<AssigneeOption> | null;
  assigneeQ: string;
  resultFor: ResultFor;
}) {
  return (
    <>
      <StatusDialog status={incident.status} lastResult={resultFor(VIEW_INTENTS.status)} />
      <AssignDialog incident={incident} assignees={assignees} assigneeQ={assigneeQ} lastResult={resultFor(VIEW_INTENTS.assign)} />
      <PriorityDialog priority={incident.priority} lastResult={resultFor(VIEW_INTENTS.priority)} />
      <TagsDialog tags={incident.tags} addResult={resultFor(VIEW_INTENTS.addTag)} removeResult={resultFor(VIEW_INTENTS.removeTag)} />
      <TitleDialog title={incident.title} lastResult={resultFor(VIEW_INTENTS.title)} />
      <DescriptionDialog description={incident.description} lastResult={resultFor(VIEW_INTENTS.description)} />
      <DuplicateDialog shortId={incident.shortId} lastResult={resultFor(VIEW_INTENTS.duplicate)} />
    </>
  );
}

function StatusDialog({ status, lastResult }: { status: number; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(statusValidator, {
    id: "set-status",
    lastResult,
    defaultValue: { status: String(status) },
  });
  return (
    <ViewDialogFrame name="status" title={t("dialogs.status.title")}>
      {(closeTo) => (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value={VIEW_INTENTS.status} />
          <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
          <Field label={t("incidents:fields.status")} htmlFor={fields.status.id} errors={text(fields.status.errors)}>
            <Select {...getSelectProps(fields.status)} data-autofocus>
              <Options values={SETTABLE_STATUSES} label={(s) => t(`incidents:status.${s}`)} />
            </Select>
          </Field>
          <Footer closeTo={closeTo} intent={VIEW_INTENTS.status} label={t("dialogs.status.save")} />
        </Form>
      )}
    </ViewDialogFrame>
  );
}

function PriorityDialog({ priority, lastResult }: { priority: number | null; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(priorityValidator, {
    id: "set-priority",
    lastResult,
    defaultValue: { priority: priority === null ? "none" : String(priority) },
  });
  return (
    <ViewDialogFrame name="priority" title={t("dialogs.priority.title")}>
      {(closeTo) => (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value={VIEW_INTENTS.priority} />
          <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
          <Field label={t("incidents:fields.priority")} htmlFor={fields.priority.id} errors={text(fields.priority.errors)}>
            <Select {...getSelectProps(fields.priority)} data-autofocus>
              <option value="none">{t("incidents:priority.none")}</option>
              <Options values={[0, 1, 2, 3]} label={(p) => priorityLabel(t, p)} />
            </Select>
          </Field>
          <Footer closeTo={closeTo} intent={VIEW_INTENTS.priority} label={t("dialogs.priority.save")} />
        </Form>
      )}
    </ViewDialogFrame>
  );
}

/**
 * Assign user: the users who reach the incident's location (and "Unassigned"), searchable. Without
 * JavaScript the search is a GET form of the dialog's page (`?dialog=assign&assigneeQ=`) with pages
 * of 20; with JavaScript typing asks /incident/{id}/assignee-options and "More users" appends.
 */
function AssignDialog({
  incident,
  assignees,
  assigneeQ,
  lastResult,
}: {
  incident: IncidentView;
  assignees: Page<AssigneeOption> | null;
  assigneeQ: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const dialog = useViewDialog("assign");
  const searchId = useId();
  const current = incident.assignee?.id ? String(incident.assignee.id) : "none";
  const [form, fields] = useZodForm(assignValidator, {
    id: "assign",
    lastResult,
    defaultValue: { assigneeId: current },
  });
  const [list, setList] = useState<{
    q: string;
    items: AssigneeOption[];
    total: number;
    page: number;
    fetched: boolean;
  }>(() => ({
    q: assigneeQ,
    items: assignees?.items ?? [],
    total: assignees?.total ?? 0,
    page: assignees?.page ?? 1,
    fetched: false,
  }));
  // The chosen user stays offered even when a search or a page leaves them out (nothing chosen would unassign).
  const initial = textOf(fields.assigneeId.initialValue) ?? current;
  const [chosen, setChosen] = useState<{ value: string; label: string }>(() => ({
    value: initial,
    label: initial === current && incident.assignee ? incident.assignee.name : assignees?.items.find((u) => String(u.id) === initial)?.name ?? initial,
  }));
  const request = useRef(0);
  // A new page from the server (a search or a page link followed): start from it.
  useEffect(() => {
    setList({
      q: assigneeQ,
      items: assignees?.items ?? [],
      total: assignees?.total ?? 0,
      page: assignees?.page ?? 1,
      fetched: false,
    });
  }, [assignees, assigneeQ]);

  async function load(q: string, page: number) {
    const ticket = ++request.current;
    const res = await fetch(
      `/incident/${incident.id}/assignee-options?${new URLSearchParams({
        q,
        page: String(page),
      })}`,
      { headers: { Accept: "application/json" } },
    );
    if (!res.ok || ticket !== request.current) return;
    const body = (await res.json()) as Page<AssigneeOption>;
    setList((prev) => ({
      q,
      items: page > 1 ? [...prev.items, ...body.items] : body.items,
      total: body.total,
      page: body.page,
      fetched: true,
    }));
  }
  const timer = useRef<ReturnType<typeof setTimeout>>();
  function onSearchInput(value: string) {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void load(value.trim(), 1).catch(() => {}), 250);
  }
  useEffect(() => () => clearTimeout(timer.current), []);
  // A search typed before this dialog's code had arrived (a page opened with the dialog open) is run now.
  const searchInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const typed = searchInput.current?.value.trim();
    if (typed !== undefined && typed !== assigneeQ.trim()) onSearchInput(typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the dialog's code has arrived
  }, []);

  const pages = Math.max(1, Math.ceil(list.total / (assignees?.size ?? 20)));
  const pageTo = (page: number) => dialog.openTo({ [ASSIGNEE_Q_PARAM]: list.q, [ASSIGNEE_PAGE_PARAM]: page });
  const errors = text(fields.assigneeId.errors);
  const radio = (value: string, label: string, key: string) => {
    const id = `assignee-${key}`;
    return (
      <li key={key} className="flex min-h-11 items-center gap-3 sm:min-h-10">
        <input
          type="radio"
          id={id}
          name={fields.assigneeId.name}
          value={value}
          checked={chosen.value === value}
          onChange={() => setChosen({ value, label })}
          className="size-5 shrink-0 accent-primary"
          aria-describedby={errors?.length ? fields.assigneeId.errorId : undefined}
        />
        <Label htmlFor={id} className="cursor-pointer font-normal leading-snug">
          {label}
        </Label>
      </li>
    );
  };
  return (
    <ViewDialogFrame name="assign" title={t("dialogs.assign.title")} description={t("dialogs.assign.description")}>
      {(closeTo) => (
        <>
          <Form method="get" preventScrollReset className="mb-4 grid gap-1.5" role="search" onSubmit={() => clearTimeout(timer.current)}>
            <input type="hidden" name="dialog" value="assign" />
            <Label htmlFor={searchId}>{t("dialogs.assign.search")}</Label>
            <div className="flex gap-2">
              <Input
                id={searchId}
                type="search"
                name={ASSIGNEE_Q_PARAM}
                defaultValue={assigneeQ}
                key={assigneeQ}
                ref={searchInput}
                autoComplete="off"
                className="min-w-0 flex-1"
                onChange={(e) => onSearchInput(e.currentTarget.value)}
                data-autofocus
              />
              <Button type="submit" variant="outline">
                {t("common:list.searchButton")}
              </Button>
            </div>
          </Form>
          <Form method="post" {...getFormProps(form)} className="grid gap-4">
            <input type="hidden" name="intent" value={VIEW_INTENTS.assign} />
            <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
            <p className="text-sm">{incident.assignee ? t("dialogs.assign.current", { name: incident.assignee.name }) : t("dialogs.assign.currentNone")}</p>
            <fieldset className="grid min-w-0 gap-2">
              <legend className="mb-2 text-sm font-medium">{t("incidents:fields.assignee")}</legend>
              <ul className="grid gap-1" aria-live="polite">
                {radio("none", t("incidents:unassigned"), "none")}
                {chosen.value !== "none" && !list.items.some((u) => String(u.id) === chosen.value)
                  ? radio(chosen.value, chosen.label, `chosen-${chosen.value}`)
                  : null}
                {list.items.map((user) =>
                  radio(
                    String(user.id),
                    t("dialogs.assign.option", {
                      name: user.name,
                      role: t(`shell:roles.${user.role}`),
                    }),
                    String(user.id),
                  ),
                )}
              </ul>
              {list.items.length === 0 && list.q ? <p className="text-sm text-muted-foreground">{t("dialogs.assign.noMatch", { q: list.q })}</p> : null}
              <p className="text-sm text-muted-foreground">
                {t("dialogs.assign.shown", {
                  count: list.items.length,
                  total: list.total,
                })}
              </p>
              <ErrorText id={fields.assigneeId.errorId} errors={errors} />
            </fieldset>
            {list.fetched ? (
              list.items.length < list.total ? (
                <div>
                  <Button type="button" variant="outline" size="sm" onClick={() => void load(list.q, list.page + 1).catch(() => {})}>
                    {t("dialogs.assign.more")}
                  </Button>
                </div>
              ) : null
            ) : pages > 1 ? (
              <nav aria-label={t("dialogs.assign.pages")} className="flex flex-wrap gap-2">
                {list.page > 1 ? (
                  <Link
                    to={pageTo(list.page - 1)}
                    preventScrollReset
                    className={buttonVariants({
                      variant: "outline",
                      size: "sm",
                    })}
                  >
                    {t("dialogs.assign.previous")}
                  </Link>
                ) : null}
                {list.page < pages ? (
                  <Link
                    to={pageTo(list.page + 1)}
                    preventScrollReset
                    className={buttonVariants({
                      variant: "outline",
                      size: "sm",
                    })}
                  >
                    {t("dialogs.assign.next")}
                  </Link>
                ) : null}
              </nav>
            ) : null}
            <Footer closeTo={closeTo} intent={VIEW_INTENTS.assign} label={t("dialogs.assign.save")} />
          </Form>
        </>
      )}
    </ViewDialogFrame>
  );
}

/** Tags: each removable by its own button, and one to add (SPEC.md section 5's three rules beside the field). */
function TagsDialog({ tags, addResult, removeResult }: { tags: string[]; addResult?: SubmissionResult<string[]>; removeResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const removeErrors = text(removeResult ? (Object.values(removeResult.error ?? {}).flat() as string[]) ?? null : null);
  return (
    <ViewDialogFrame name="tags" title={t("dialogs.tags.title")}>
      {(closeTo) => (
        <div className="grid gap-4">
          <section className="grid gap-2" aria-labelledby="tags-current">
            <h3 id="tags-current" className="text-sm font-medium">
              {t("dialogs.tags.current")}
            </h3>
            <ErrorText errors={removeErrors} role="alert" />
            {tags.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t("dialogs.tags.none")}</p>
            ) : (
              <ul className="flex flex-wrap gap-2">
                {tags.map((tag) => (
                  <li key={tag}>
                    <Form method="post" className="flex items-center gap-1 rounded-full border py-0.5 pl-3 pr-0.5 text-sm">
                      <input type="hidden" name="intent" value={VIEW_INTENTS.removeTag} />
                      <input type="hidden" name="tag" value={tag} />
                      <span>{tag}</span>
                      <Button
                        type="submit"
                        variant="ghost"
                        size="icon"
                        className="size-11 rounded-full sm:size-10"
                        aria-label={t("common:tags.remove", { tag })}
                        title={t("common:tags.remove", { tag })}
                      >
                        <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
                          <path d="M18 6 6 18M6 6l12 12" />
                        </svg>
                      </Button>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <AddTagForm key={tags.join("\n")} closeTo={closeTo} lastResult={addResult} />
        </div>
      )}
    </ViewDialogFrame>
  );
}

/** The tags dialog's "New tag" form; a new one (empty) after each change of the tags. */
function AddTagForm({ closeTo, lastResult }: { closeTo: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(tagValidator, {
    id: "add-tag",
    lastResult,
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={VIEW_INTENTS.addTag} />
      <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
      <Field label={t("dialogs.tags.new")} htmlFor={fields.tag.id} errors={text(fields.tag.errors)} description={t("dialogs.tags.rules", { max: MAX_TAGS })}>
        <Input
          {...getInputProps(fields.tag, {
            type: "text",
            ariaDescribedBy: `${fields.tag.id}-description`,
          })}
          autoComplete="off"
          data-autofocus
        />
      </Field>
      <DialogFooter className="mt-2">
        <Link to={closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
          {t("dialogs.tags.done")}
        </Link>
        <SubmitButton intent={VIEW_INTENTS.addTag}>{t("dialogs.tags.add")}</SubmitButton>
      </DialogFooter>
    </Form>
  );
}

function TitleDialog({ title, lastResult }: { title: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(titleValidator, {
    id: "edit-title",
    lastResult,
    defaultValue: { title },
  });
  return (
    <ViewDialogFrame name="title" title={t("dialogs.title.title")}>
      {(closeTo) => (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value={VIEW_INTENTS.title} />
          <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
          <Field label={t("incidents:fields.title")} htmlFor={fields.title.id} errors={text(fields.title.errors)} required>
            <Input {...getInputProps(fields.title, { type: "text" })} maxLength={TITLE_MAX} autoComplete="off" data-autofocus />
          </Field>
          <Footer closeTo={closeTo} intent={VIEW_INTENTS.title} label={t("common:actions.save")} />
        </Form>
      )}
    </ViewDialogFrame>
  );
}

function DescriptionDialog({ description, lastResult }: { description: string | null; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(descriptionValidator, {
    id: "edit-description",
    lastResult,
    defaultValue: { description: description ?? "" },
  });
  return (
    <ViewDialogFrame name="description" title={t("dialogs.description.title")}>
      {(closeTo) => (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value={VIEW_INTENTS.description} />
          <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
          <Field label={t("incidents:fields.description")} htmlFor={fields.description.id} errors={text(fields.description.errors)}>
            <Textarea {...getTextareaProps(fields.description)} maxLength={DESCRIPTION_MAX} rows={8} data-autofocus />
          </Field>
          <Footer closeTo={closeTo} intent={VIEW_INTENTS.description} label={t("common:actions.save")} />
        </Form>
      )}
    </ViewDialogFrame>
  );
}

function DuplicateDialog({ shortId, lastResult }: { shortId: number; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const [form, fields] = useZodForm(duplicateValidator, {
    id: "mark-duplicate",
    lastResult,
  });
  return (
    <ViewDialogFrame name="duplicate" title={t("dialogs.duplicate.title", { shortId })} description={t("dialogs.duplicate.explain")}>
      {(closeTo) => (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <input type="hidden" name="intent" value={VIEW_INTENTS.duplicate} />
          <FormErrors id={form.errorId} errors={form.errors} ns={["incidents"]} />
          <Field
            label={t("dialogs.duplicate.label")}
            htmlFor={fields.duplicateOf.id}
            errors={text(fields.duplicateOf.errors)}
            description={t("dialogs.duplicate.hint")}
            required
          >
            <Input
              {...getInputProps(fields.duplicateOf, {
                type: "text",
                ariaDescribedBy: `${fields.duplicateOf.id}-description`,
              })}
              inputMode="numeric"
              autoComplete="off"
              data-autofocus
            />
          </Field>
          <Footer closeTo={closeTo} intent={VIEW_INTENTS.duplicate} label={t("dialogs.duplicate.save")} />
        </Form>
      )}
    </ViewDialogFrame>
  );
}
