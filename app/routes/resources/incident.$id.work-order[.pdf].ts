import type { LoaderFunctionArgs } from "@remix-run/node";
import { workOrderResponse } from "~/http/incident-api.server";
import { serviceContext } from "~/http/route-context.server";
import { localeByUserLanguage } from "~/i18n";
import { detectLocale, getT } from "~/i18n.server";
import { isDomainError } from "~/lib/errors";
import { requireUser } from "~/modules/auth/guard.server";

/**
 * GET /incident/{id}/work-order.pdf ("Print work order" on the incident view): the printed work order
 * (A4 PDF, in the user's language as the pages use it: their setting, else the language cookie or the
 * browser's), inline, named work-order-<shortId>.pdf. A malformed id, another entity's incident or one
 * outside the user's reach is 404 "Incident not found".
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const profile = context.auth.shell?.profile;
  const locale = await detectLocale(request, profile ? localeByUserLanguage[profile.language] : null);
  const ctx = { ...(await serviceContext({ request, context }, user)), locale };
  const notFound = () =>
    new Response(getT(locale, "incidents")("errors.notFound"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  const id = params.id && /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  if (!id) return notFound();
  try {
    return await workOrderResponse({ request, context }, ctx, id);
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return notFound();
    throw error;
  }
}
