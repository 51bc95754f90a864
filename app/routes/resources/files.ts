import type { LoaderFunctionArgs } from "@remix-run/node";
import { serviceContext } from "~/http/route-context.server";
import { isDomainError } from "~/lib/errors";
import { requireUser } from "~/modules/auth/guard.server";
import { serveStoredFile } from "~/modules/files/access.server";

/**
 * GET /files/:id: a stored file, only for a signed-in user of its entity who may reach the record
 * that owns it (a room they may view, an incident they may read, their own bug report, ...: see
 * app/modules/files/access.server.ts). Anything else, unowned or unknown, is 404.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  try {
    const { file, bytes } = await serveStoredFile(ctx, ctx.files, params.id ?? "");
    const inline = file.mimeType.startsWith("image/") || file.mimeType === "application/pdf";
    return new Response(new Uint8Array(bytes), {
      headers: {
        "Content-Type": file.mimeType,
        "Content-Length": String(bytes.byteLength),
        "Content-Disposition": `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.originalName)}`,
        "Cache-Control": "private, max-age=3600",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (isDomainError(error) && error.status === 404) return new Response("Not Found", { status: 404 });
    throw error;
  }
}
