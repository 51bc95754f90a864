import { type AppLoadContext, data, redirect } from "@remix-run/node";
import { readFormData } from "~/http/form-action.server";
import { reportLimits } from "~/http/report-limits.server";
import { readReportForm, reportControlErrors, reportFailure, type ReportFormFailure, reportServices, reportWrite } from "~/http/report-form.server";
import { detectLocale } from "~/i18n.server";
import { isDomainError } from "~/lib/errors";
import { type ArithmeticQuestion, captcha } from "~/modules/onboarding/captcha.server";
import { getReportPlace, type ReportPlace, resolveReportIdentifierKept, staffPlaceLink } from "~/modules/occupier-reports/place.server";
import { serviceContext } from "~/http/route-context.server";
import { REPORT_HONEYPOT_FIELD } from "~/modules/occupier-reports/schema";
import { reportIncident } from "~/modules/occupier-reports/service.server";

/**
 * The occupier's report page (/report/{identifier}): what its loader shows and what its
 * action does. Public, no account: the identifier is the only key; anything unknown, archived or
 * malformed is the friendly "not found" page (404), the same whoever's it might be.
 *
 * Abuse: the server's per-minute tiers, then this page's hourly limits (report-limits.server.ts): a
 * captcha question after a few reports from one address, 429 beyond the limits; and a honeypot field
 * (REPORT_HONEYPOT_FIELD) that people never see: a post that fills it is answered as a success and dropped.
 */

type Args = { request: Request; context: AppLoadContext; params: { identifier?: string } };

/** What the page may show of the place: no ids of the entity or its files. */
export function publicPlace(place: ReportPlace) {
  return {
    code: place.code,
    entity: { name: place.entity.name, logoUrl: place.entity.logoUrl, color: place.entity.color, textColor: place.entity.textColor, greeting: place.entity.greeting },
    facilityName: place.facilityName,
    buildingName: place.buildingName,
    roomName: place.roomName,
    floor: place.floor,
    equipmentItem: place.equipmentItem ? { name: place.equipmentItem.name, internalReference: place.equipmentItem.internalReference } : null,
    links: place.links,
    incidentTypes: place.incidentTypes.map((type) => ({
      id: type.id,
      name: type.name,
      defaultPriority: type.defaultPriority,
      reporterMayChangePriority: type.reporterMayChangePriority,
      checklist: type.checklist,
    })),
  };
}
export type PublicPlace = ReturnType<typeof publicPlace>;

export type ReportPageData =
  | { state: "notFound" }
  | {
      state: "page";
      place: PublicPlace;
      /** The chosen type (`?type=`), when it applies here. */
      typeId: number | null;
      /** The thank-you after a report (`?sent=<shortId>&how=created|folded&mail=1`). */
      sent: { shortId: number | null; folded: boolean; mailed: boolean } | null;
      /** The captcha question, when this address must answer one. */
      question: { a: number; b: number; token: string } | null;
      /** Minutes until this address or sticker may report again, when it may not now. */
      limitedMinutes: number | null;
      /** For a signed-in staff person who reaches the place: the item's screen or the room view. */
      staffLink: string | null;
    };

export type ReportActionData =
  | { state: "notFound" }
  | { state: "limited"; minutes: number }
  | ({ state: "invalid" } & ReportFormFailure)
  | { state: "error" };

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

async function placeOrNull(args: Args, locale: string): Promise<ReportPlace | null> {
  try {
    return await getReportPlace({ db: args.context.runtime.database.db }, args.params.identifier ?? "", locale);
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return null;
    throw error;
  }
}

export async function reportPageLoader(args: Args) {
  const { request, context } = args;
  const locale = await detectLocale(request);
  const place = await placeOrNull(args, locale);
  if (!place) return data<ReportPageData>({ state: "notFound" }, { status: 404 });
  const url = new URL(request.url);
  const typeParam = url.searchParams.get("type");
  const typeId = typeParam && /^\d{1,9}$/.test(typeParam) && place.incidentTypes.some((t) => t.id === Number(typeParam)) ? Number(typeParam) : null;
  const sentParam = url.searchParams.get("sent");
  const sent =
    sentParam === null
      ? null
      : {
          shortId: /^\d{1,9}$/.test(sentParam) ? Number(sentParam) : null,
          folded: url.searchParams.get("how") === "folded",
          mailed: url.searchParams.get("mail") === "1",
        };
  const limits = reportLimits(context.runtime.config.RATE_LIMIT_MULTIPLIER);
  const limited = await limits.limited(context.clientAddress, place.code);
  const question: ArithmeticQuestion | null = typeId !== null && !sent && (await limits.needsCaptcha(context.clientAddress)) ? captcha().question() : null;
  const user = context.auth.user;
  const staffLink = user ? await staffPlaceLink(await serviceContext(args, user), place) : null;
  return data<ReportPageData>(
    {
      state: "page",
      place: publicPlace(place),
      typeId,
      sent,
      question: question ? { a: question.a, b: question.b, token: question.token } : null,
      limitedMinutes: limited.ok ? null : minutes(limited.retryAfterSeconds),
      staffLink,
    },
    // The page changes with the address's limits and the language: never from a shared cache.
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function reportPageAction(args: Args) {
  const { request, context } = args;
  const locale = await detectLocale(request);
  // Only whether the sticker exists (kept until its entity writes, decision 019), before the limits count
  // the post; `reportIncident` takes the answer and checks the type against the place (bench:report).
  const code = args.params.identifier ?? "";
  const resolved = await resolveReportIdentifierKept(context.runtime.database.db, code);
  if (!resolved) return data<ReportActionData>({ state: "notFound" }, { status: 404 });
  const limits = reportLimits(context.runtime.config.RATE_LIMIT_MULTIPLIER);
  const admission = await limits.admit(context.clientAddress, code);
  if (!admission.ok) {
    return data<ReportActionData>(
      { state: "limited", minutes: minutes(admission.retryAfterSeconds) },
      { status: 429, headers: { "Retry-After": String(admission.retryAfterSeconds) } },
    );
  }
  const formData = await readFormData(request, context.runtime.files.maxBytes);
  const back = `/report/${encodeURIComponent(code)}`;
  const honeypot = formData.get(REPORT_HONEYPOT_FIELD);
  if (typeof honeypot === "string" && honeypot.trim() !== "") {
    // A bot filled the field no person sees: it gets the thank-you, nothing is saved.
    return redirect(`${back}?sent`, 303);
  }
  const { values, photos } = await readReportForm(formData);
  const invalid = (failure: ReportFormFailure) => data<ReportActionData>({ state: "invalid", ...failure }, { status: 400 });
  const control = reportControlErrors(formData);
  if (control) return invalid({ fieldErrors: control, formErrors: [], values, photosLost: photos.length > 0 });
  if (await limits.needsCaptcha(context.clientAddress)) {
    const token = formData.get("questionToken");
    const answer = formData.get("answer");
    const solved = typeof token === "string" && typeof answer === "string" && (await captcha().verifyQuestion(token, answer));
    if (!solved) return invalid({ fieldErrors: { answer: ["report:form.captchaWrong"] }, formErrors: [], values, photosLost: photos.length > 0 });
  }
  try {
    const result = await reportIncident(reportServices({ request, context }), code, reportWrite(values, photos), { actor: null, locale, resolved });
    await limits.recordReport(context.clientAddress);
    const mailed = result.statusToken !== null ? "&mail=1" : "";
    return redirect(`${back}?sent=${result.shortId}&how=${result.outcome}${mailed}`, 303);
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return data<ReportActionData>({ state: "notFound" }, { status: 404 });
    const failure = reportFailure(error, values, photos);
    if (!failure) return data<ReportActionData>({ state: "error" }, { status: 500 });
    return invalid(failure);
  }
}

/** What the public page cache knows of a GET (server/page-cache.ts). */
export interface PublicPageRequest {
  /** Path and query, as sent. */
  url: string;
  cookie: string | null;
  acceptLanguage: string | null;
  clientAddress: string;
}

const SESSION_COOKIE = /(?:^|;\s*)__session=/;

/**
 * The key under which the report page for this request may be kept and served again (decision 019), and
 * the entity whose writes make it stale; null when it must be rendered: anything but the page itself or
 * its form (`?type=`), an unknown sticker, a signed-in visitor (their own language and session), an
 * address that must answer the captcha, and an address or sticker over its limits (the page then says so).
 * What else makes the page differ is in the key: the path and query, the language, and the cookies (the
 * consent banner). Everything the page shows belongs to the sticker's entity.
 */
export async function reportPageCacheKey(
  req: PublicPageRequest,
  options: { db: Parameters<typeof resolveReportIdentifierKept>[0]; rateLimitMultiplier: number },
): Promise<{ key: string; entityId: number } | null> {
  const match = /^\/report\/([^/?#]+)(?:\?type=(\d{1,9}))?$/.exec(req.url);
  if (!match) return null;
  if (req.cookie && SESSION_COOKIE.test(req.cookie)) return null;
  let code: string;
  try {
    code = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  const limits = reportLimits(options.rateLimitMultiplier);
  if (!(await limits.limited(req.clientAddress, code)).ok) return null;
  if (match[2] !== undefined && (await limits.needsCaptcha(req.clientAddress))) return null;
  const resolved = await resolveReportIdentifierKept(options.db, code);
  if (!resolved) return null;
  const headers = new Headers();
  if (req.cookie) headers.set("cookie", req.cookie);
  if (req.acceptLanguage) headers.set("accept-language", req.acceptLanguage);
  const locale = await detectLocale(new Request(`http://localhost${req.url}`, { headers }));
  return { key: `${req.url}\u0000${locale}\u0000${req.cookie ?? ""}`, entityId: resolved.entityId };
}
