import { createCookie, data, redirect } from "@remix-run/node";
import { backHref, CHOICES_PARAM, COLUMN_PARAM, INCIDENTS_PATH, parseView, RESET_PARAM, savedFilterQuery } from "~/modules/incidents/list-url";
import { config } from "~/config.server";
import { refuseControlCharacters } from "~/http/form-action.server";
import type { Intent, IntentArgs } from "~/http/screen.server";
import { toastHeader } from "~/http/toast.server";
import { fallbackLng, isLocale } from "~/i18n";
import { getT } from "~/i18n.server";
import { asDomainError, ForbiddenError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { FILTERS_COOKIE } from "~/modules/incidents/constants";

/**
 * What the screen /incidents (app/routes/incidents.tsx) needs from the transport: the remembered
 * filters (a cookie), and the answer of its changes (a row's or card's status, bulk), each one verb:
 * a redirect to the same list with a toast, or a 400/404 with the translated message.
 */

// ---------------------------------------------------------------------------
// The remembered filters (SPEC.md section 3: "filters" are kept in the browser)
// ---------------------------------------------------------------------------

const FILTERS_MAX_AGE = 60 * 60 * 24 * 180;

let filtersCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  filtersCookie ??= createCookie(FILTERS_COOKIE, {
    path: INCIDENTS_PATH,
    sameSite: "lax",
    httpOnly: true,
    maxAge: FILTERS_MAX_AGE,
    secure: config().APP_URL.startsWith("https://"),
  });
  return filtersCookie;
}

async function savedQuery(request: Request): Promise<string> {
  const value: unknown = await cookie().parse(request.headers.get("Cookie"));
  // Re-read through the same filter: a cookie edited by hand keeps only what a list address may hold.
  return typeof value === "string" ? savedFilterQuery(new URLSearchParams(value)) : "";
}

/**
 * Keeps the list's filters in the cookie, or restores them: /incidents without any parameter goes to
 * the saved address (a redirect); `?reset=1` forgets them (a redirect to the bare view); any other
 * address is saved (its filters, sort, page size and view). Returns the Set-Cookie header to send, if any.
 */
export async function rememberFilters(request: Request): Promise<string | null> {
  const params = new URL(request.url).searchParams;
  const saved = await savedQuery(request);
  if (params.has(RESET_PARAM)) {
    const view = parseView(params);
    throw redirect(view === "board" ? `${INCIDENTS_PATH}?view=board` : INCIDENTS_PATH, {
      headers: { "Set-Cookie": await cookie().serialize("", { maxAge: 0 }) },
    });
  }
  if (params.size === 0) {
    if (saved) throw redirect(`${INCIDENTS_PATH}?${saved}`);
    return null;
  }
  // The board's "More" (JavaScript) asks for one column, the bulk form for its choices: nothing to save.
  if (params.has(COLUMN_PARAM) || params.has(CHOICES_PARAM)) return null;
  const current = savedFilterQuery(params);
  if (current === saved) return null;
  return current ? cookie().serialize(current) : cookie().serialize("", { maxAge: 0 });
}

// ---------------------------------------------------------------------------
// The changes of the list
// ---------------------------------------------------------------------------

/** What a refused change answers: the translated message (shown as a toast, and beside the bulk form). */
export interface ListActionError {
  intent: string | null;
  /** The incident of a row or card form. */
  id: number | null;
  message: string;
  /** Tells two answers apart (the same message twice is two toasts). */
  at: number;
}

/** A posted id ("12"); 0 when it is not one (the verb then answers "Incident not found"). */
function postedId(formData: FormData, name = "id"): number {
  const value = formData.get(name);
  return typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : 0;
}

/**
 * The status posted for incident `id`: `status` (a card's drop, a select with JavaScript, the API-like
 * post), else that incident's select of the page's status form (`status-{id}`, Save without JavaScript).
 */
export function postedStatus(formData: FormData, id: number): FormDataEntryValue | null {
  return formData.get("status") ?? formData.get(`status-${id}`);
}

/**
 * The posted ids of the bulk form: the checked rows, or every row of the page with "Select all" (the
 * page's ids in one field, `pageIds=12,11,10`).
 */
export function bulkIds(formData: FormData): unknown[] {
  const all = formData.get("allOnPage") === "1";
  return formData
    .getAll(all ? "pageIds" : "ids")
    .flatMap((v) => (all && typeof v === "string" ? v.split(",") : [v]))
    .map((v) => (typeof v === "string" && /^\d{1,10}$/.test(v) ? Number(v) : v));
}

/**
 * One change of the list, an intent of /incidents: a row's or card's status (the incident's `id`
 * posted), or the bulk form (`intent=bulk`). `change` calls the verb; then back
 * to the list as it was with `toast` (its params, when `change` gives them). A refused change answers
 * its translated message with 400, or 404 for a row's incident out of reach.
 */
export function listChange(toast: string, change: (args: IntentArgs, id: number) => Promise<void | Response | Record<string, number>>): Intent {
  return async (args) => {
    const { ctx, formData, intent } = args;
    const id = intent === "bulk" ? null : postedId(formData);
    const t = getT(isLocale(ctx.locale) ? ctx.locale : fallbackLng);
    try {
      refuseControlCharacters(formData);
      const done = await change(args, id ?? 0);
      if (done instanceof Response) return done;
      const headers = { "Set-Cookie": await toastHeader({ type: "success", key: toast, params: done ?? undefined }) };
      return redirect(backHref(args.url.search), { headers });
    } catch (error) {
      if (error instanceof ForbiddenError) throw redirect("/forbidden");
      const known = asDomainError(error);
      if (!known) {
        logger().error({ err: error, intent }, "incidents list: could not save");
        return data<ListActionError>({ intent, id, message: t("common:errors.couldNotSave"), at: Date.now() }, { status: 500 });
      }
      // The message of the first field error (e.g. "This user cannot reach the incident's location"), else the error's own.
      const key = Object.values(known.fieldErrors ?? {}).flat()[0] ?? known.messageKey;
      const message = t(key.includes(":") ? key : `common:${key}`);
      return data<ListActionError>({ intent, id, message, at: Date.now() }, { status: known.status === 404 && id !== null ? 404 : 400 });
    }
  };
}
