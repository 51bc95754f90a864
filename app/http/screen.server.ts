import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import type { z } from "zod";
import { type Action, can, type Subject } from "~/core/actor";
import { ARCHIVE_INTENT, type ArchiveInput } from "~/lib/archive";
import { ForbiddenError, isDomainError } from "~/lib/errors";
import { requireUser } from "~/modules/auth/guard.server";
import type { AuthUser } from "~/modules/auth/service.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { archiveAction, formDataOf, readFormData, submitForm, type SubmitOptions } from "./form-action.server";
import { serviceContext } from "./route-context.server";
import { notFound, orErrorPage, routeId } from "./route-params.server";

/**
 * The one shape of a signed-in screen's server code (decision 046). A route module declares its loader
 * (`screenLoader`) and its action (`screenAction`: a table of intents); both start from the signed-in
 * user and their service context. A screen whose address names a record (`/update-room/{id}`) declares
 * that record as its subject: it is read, with the viewer's reach, before the loader or any intent runs,
 * so an id the viewer cannot reach (unknown, another entity's, outside their facilities) is the 404
 * page whatever is posted; and an intent gets the id only from the subject.
 */

/** What a screen's loader and intents start from. */
export interface ScreenArgs {
  request: Request;
  context: AppLoadContext;
  user: AuthUser;
  ctx: FilesContext;
  /** The request's address: its search parameters drive lists, pickers and dialogs. */
  url: URL;
}

/** Reads the record the address names, within the viewer's reach; throws the 404 page (or goes to /forbidden) otherwise. */
export type SubjectReader<S> = (args: ScreenArgs & { params: LoaderFunctionArgs["params"] }) => Promise<S>;

/**
 * The record of the address's `:id`, read by `read(ctx, id)`: a malformed id, an unknown one, another
 * entity's or one out of reach is the 404 page (naming `notFoundKey` for a malformed one when given).
 */
export function subjectById<S extends { id: number }>(read: (ctx: FilesContext, id: number) => Promise<S>, notFoundKey?: string): SubjectReader<S> {
  return ({ ctx, params }) => orErrorPage(read(ctx, routeId(params, "id", notFoundKey)));
}

async function screenArgs({ request, context, params }: LoaderFunctionArgs, subject: SubjectReader<unknown> | undefined): Promise<ScreenArgs> {
  // An address naming a record without a subject to read it would let the screen act on any id.
  if (!subject && Object.keys(params).length > 0) throw new Error("A screen whose address names a record declares its subject (decision 046).");
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  return { request, context, user, ctx, url: new URL(request.url) };
}

type Load<A, R> = (args: A) => R | Promise<R>;

/** A screen's loader: its reads, given the signed-in user's context (and the subject, read first, when the screen has one). */
export function screenLoader<R>(load: Load<ScreenArgs, R>): (args: LoaderFunctionArgs) => Promise<R>;
export function screenLoader<S, R>(subject: SubjectReader<S>, load: Load<ScreenArgs & { subject: S }, R>): (args: LoaderFunctionArgs) => Promise<R>;
export function screenLoader<S, R>(first: SubjectReader<S> | Load<ScreenArgs, R>, second?: Load<ScreenArgs & { subject: S }, R>) {
  const subject = second ? (first as SubjectReader<S>) : undefined;
  const load = (second ?? first) as Load<ScreenArgs & { subject: S | undefined }, R>;
  return async (args: LoaderFunctionArgs): Promise<R> => {
    const base = await screenArgs(args, subject);
    return load({ ...base, subject: subject ? await subject({ ...base, params: args.params }) : undefined });
  };
}

type TabData<T> = { [K in keyof T]: { tab: K } & Awaited<ReturnType<T[K] extends (...args: never[]) => unknown ? T[K] : never>> }[keyof T];

/**
 * The loader of a screen of link tabs (`?tab=`, decision 046): the tab the address names (`first`
 * when it names none or another), then that tab's reads, a table like the intents'. The answer
 * carries `tab`, on which the page narrows.
 */
export function tabsLoader<T extends Record<string, Load<ScreenArgs, object>>>(first: keyof T & string, tabs: T): (args: LoaderFunctionArgs) => Promise<TabData<T>> {
  return screenLoader(async (args) => {
    const named = args.url.searchParams.get("tab");
    const tab = named !== null && Object.hasOwn(tabs, named) ? named : first;
    return { tab, ...(await tabs[tab](args)) } as TabData<T>;
  });
}

/** What an intent is given: the screen's arguments, its subject (undefined for a screen without one), the posted form. */
export interface IntentArgs<S = undefined> extends ScreenArgs {
  subject: S;
  formData: FormData;
  /** The intent answered: the one posted, or the table's `fallback` for a post that names none. */
  intent: string;
}

/** One intent of a screen: answers the post (a redirect with a toast, or the form again with its errors). */
export type Intent<S = undefined> = (args: IntentArgs<S>) => unknown;

/** What the intents of a table answer. */
export type Answer<T> = { [K in keyof T]: T[K] extends (...args: never[]) => infer R ? Awaited<R> : never }[keyof T];

/** A screen's action answering `R`, with the intents it answers (read by the tests that post every one of them). */
export type IntentAction<R> = ((args: ActionFunctionArgs) => Promise<R>) & { intents: readonly string[] };

/**
 * The intent a posted form names (`intent`), or `fallback` when it names none (conform's list buttons
 * post no intent); anything that is not a key of `intents` is a 400.
 */
function intentOf(formData: FormData, intents: object, fallback?: string): string {
  const posted = formData.get("intent");
  const name = posted === null ? fallback : typeof posted === "string" ? posted : undefined;
  if (name === undefined || !Object.hasOwn(intents, name)) throw new Response("Bad Request", { status: 400 });
  return name;
}

/**
 * A domain error an intent (or a subject reader) throws rather than answers: forbidden goes to
 * /forbidden, not found is the 404 page, like a loader's (`orErrorPage`). Form errors are answered by
 * the form helpers before they get here.
 */
function errorPage(error: unknown): unknown {
  if (error instanceof ForbiddenError) return redirect("/forbidden");
  if (isDomainError(error) && error.status === 404) return notFound(error.messageKey);
  return error;
}

export interface ScreenActionOptions<S, T> {
  /** The record the address names, read (reach checked) before the body is read and any intent runs. */
  subject?: SubjectReader<S>;
  /** The forms may carry files: the body is read as multipart, files up to the file store's limit. */
  files?: boolean;
  /** The intent of a post that names none. */
  fallback?: keyof T & string;
  /** The intents, by the `intent` value their form posts. */
  intents: T;
}

/**
 * A screen's action: the signed-in user's context, then the subject (404 when out of reach, before the
 * body is even read), then the body, then the one intent the form names; an unknown intent is a 400.
 */
export function screenAction<S = undefined, T extends Record<string, Intent<S>> = Record<string, Intent<S>>>(options: ScreenActionOptions<S, T>): IntentAction<Answer<T>> {
  const { subject, intents } = options;
  const action = async (args: ActionFunctionArgs) => {
    const base = await screenArgs(args, subject);
    try {
      const read = subject ? await subject({ ...base, params: args.params }) : undefined;
      const formData = options.files ? await readFormData(args.request, base.ctx.files.maxBytes) : await formDataOf(args.request);
      const intent = intentOf(formData, intents, options.fallback);
      return (await intents[intent]({ ...base, subject: read as S, formData, intent })) as Answer<T>;
    } catch (error) {
      throw errorPage(error);
    }
  };
  return Object.assign(action, { intents: Object.keys(intents) });
}

/** What an intent of a page without a session (sign-up, password reset) is given. */
export interface VisitorIntentArgs {
  request: Request;
  context: AppLoadContext;
  formData: FormData;
  intent: string;
}

/** The action of a page without a session: the body, then the one intent it names; an unknown intent is a 400. */
export function visitorAction<T extends Record<string, (args: VisitorIntentArgs) => unknown>>(options: { fallback?: keyof T & string; intents: T }): IntentAction<Answer<T>> {
  const action = async ({ request, context }: ActionFunctionArgs) => {
    const formData = await formDataOf(request);
    const intent = intentOf(formData, options.intents, options.fallback);
    return (await options.intents[intent]({ request, context, formData, intent })) as Answer<T>;
  };
  return Object.assign(action, { intents: Object.keys(options.intents) });
}

/** An intent only an actor who `can` do `action` to `subject` may post; anyone else goes to /forbidden. */
export function allowedTo<S, A extends IntentArgs<S>, R>(action: Action, subject: Subject, intent: (args: A) => R): (args: A) => R {
  return (args) => {
    if (!can(args.ctx.actor, action, subject)) throw redirect("/forbidden");
    return intent(args);
  };
}

// ---------------------------------------------------------------------------
// Form intents
// ---------------------------------------------------------------------------

type Target<S> = string | ((args: IntentArgs<S>) => string);

/** What a form's intent answers: a redirect, or the form again with its errors (`FormFailure`). */
export type FormAnswer = Awaited<ReturnType<typeof submitForm>>;
export type FormIntent<S> = (args: IntentArgs<S>) => Promise<FormAnswer>;

/**
 * The intent of one form: parse it with `schema`, call the verb once (`save`), then go to `redirectTo`
 * with `toast`; an invalid form or the verb's error answers the form under the intent's name, input kept
 * (or, with `failure`, a failure that is not the user's input is an error toast on a page).
 */
export function formIntent<S, Z extends z.ZodType>(
  options: Omit<SubmitOptions<string, Z>, "intent" | "redirectTo" | "failure"> & {
    redirectTo: Target<S>;
    failure?: { toast: string; to: Target<S>; inputErrors?: boolean };
  },
  save: (value: z.output<Z>, args: IntentArgs<S>) => Promise<unknown>,
): FormIntent<S> {
  const target = (to: Target<S>, args: IntentArgs<S>) => (typeof to === "string" ? to : to(args));
  return (args) => {
    const failure = options.failure && { ...options.failure, to: target(options.failure.to, args) };
    return submitForm(args.formData, { ...options, intent: args.intent, redirectTo: target(options.redirectTo, args), failure }, (value) => save(value, args));
  };
}

/** The archive confirmation of the subject (`intent=archive`, the retyped name), then to `list` with "Archived". */
export function archiveIntent<S extends { id: number }>(list: string, archive: (ctx: FilesContext, id: number, confirm: ArchiveInput) => Promise<unknown>): FormIntent<S> {
  return ({ formData, ctx, subject }) => archiveAction(formData, (confirm) => archive(ctx, subject.id, confirm), { redirectTo: list });
}

// ---------------------------------------------------------------------------
// The add and update screens of a record (a facility, a building, a room, a category, ...)
// ---------------------------------------------------------------------------

interface RecordForm<Z extends z.ZodType, H> {
  /** The form's schema, the one its component validates with. */
  schema: Z;
  /** The list the saved form goes back to, with "Created" or "Updated". */
  list: string;
  /** The form carries files: multipart, read up to the file store's limit. */
  files?: boolean;
  /** The form's own intent, when not `create` (add) or `update` (update). */
  intent?: string;
  /** A post that names no intent is the form's (its list buttons, conform's, post none). */
  listButtons?: boolean;
  /** Further intents of the form (a picker's search without JavaScript), answered without saving. */
  helpers?: H;
}

/** The action of /add-<record>: the form's intent (`create`) calls `create`, then back to `list` with "Created". */
export function addAction<Z extends z.ZodType, H extends Record<string, Intent> = Record<never, Intent>>(
  options: RecordForm<Z, H> & { create: (ctx: FilesContext, value: z.output<Z>, formData: FormData) => Promise<unknown> },
): IntentAction<FormAnswer | Answer<H>> {
  const intent = options.intent ?? "create";
  const save = formIntent({ schema: options.schema, redirectTo: options.list, toast: "common:toast.created" }, (value, { ctx, formData }) => options.create(ctx, value, formData));
  const intents: Record<string, Intent> = { ...options.helpers, [intent]: save };
  return screenAction({ files: options.files, fallback: options.listButtons ? intent : undefined, intents }) as unknown as IntentAction<FormAnswer | Answer<H>>;
}

/**
 * The action of /update-<record>/{id} (its subject, read first: 404 when out of reach): the form's
 * intent (`update`) calls `update`, then back to `list` with "Updated"; the archive confirmation
 * (`intent=archive`, the retyped name) calls `archive`, or is an intent of its own (a removal with more fields).
 */
export function updateAction<S extends { id: number }, Z extends z.ZodType, H extends Record<string, Intent<S>> = Record<never, Intent<S>>>(
  subject: SubjectReader<S>,
  options: RecordForm<Z, H> & {
    update: (ctx: FilesContext, id: number, value: z.output<Z>, formData: FormData) => Promise<unknown>;
    archive: ((ctx: FilesContext, id: number, confirm: ArchiveInput) => Promise<unknown>) | { intent: FormIntent<S> };
  },
): IntentAction<FormAnswer | Answer<H>> {
  const intent = options.intent ?? "update";
  const save = formIntent<S, Z>({ schema: options.schema, redirectTo: options.list, toast: "common:toast.updated" }, (value, { ctx, subject: record, formData }) =>
    options.update(ctx, record.id, value, formData),
  );
  const archive = "intent" in options.archive ? options.archive.intent : archiveIntent<S>(options.list, options.archive);
  const intents: Record<string, Intent<S>> = { ...options.helpers, [intent]: save, [ARCHIVE_INTENT]: archive };
  return screenAction({ subject, files: options.files, fallback: options.listButtons ? intent : undefined, intents }) as unknown as IntentAction<FormAnswer | Answer<H>>;
}
