import type { LoaderFunctionArgs } from "@remix-run/node";
import { isDomainError } from "~/lib/errors";
import { getReportLogo } from "~/modules/occupier-reports/logo.server";

/**
 * GET /report/{identifier}/logo: the logo of the entity owning the sticker, for the public report
 * page (no account: /files/{id} is for signed-in users). Cached by browsers for a day. An unknown,
 * archived or malformed identifier, or an entity without a logo, is 404.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const { runtime } = context;
  try {
    const { bytes, mimeType } = await getReportLogo({ db: runtime.database.db, files: runtime.files }, params.identifier ?? "");
    return new Response(new Uint8Array(bytes), {
      headers: {
        "Content-Type": mimeType,
        "Content-Length": String(bytes.byteLength),
        "Cache-Control": "public, max-age=86400",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    throw error;
  }
}
