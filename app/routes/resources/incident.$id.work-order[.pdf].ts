import type { LoaderFunctionArgs } from "@remix-run/node";
import { workOrderResponse } from "~/http/incident-api.server";
import { userPdf } from "~/http/user-pdf.server";

/**
 * GET /incident/{id}/work-order.pdf ("Print work order" on the incident view): the printed work order
 * (A4 PDF, in the user's language as the pages use it: their setting, else the language cookie or the
 * browser's), inline, named work-order-<shortId>.pdf. A malformed id, another entity's incident or one
 * outside the user's reach is 404 "Incident not found".
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = params.id && /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  return userPdf({ request, context }, "incidents:errors.notFound", (ctx) => (id ? workOrderResponse({ request, context }, ctx, id) : null));
}
