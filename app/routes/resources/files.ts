import type { LoaderFunctionArgs } from "@remix-run/node";
import { isDomainError } from "~/lib/errors";
import { requireUser } from "~/modules/auth/guard.server";
import { readStoredFile } from "~/modules/files/storage.server";

/** GET /files/:id: a stored file, only for signed-in users of the entity that owns it. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const rt = context.runtime;
  try {
    const { file, bytes } = await readStoredFile(
      { db: rt.database.db, entityId: user.entityId, actor: { id: user.id, role: user.role }, locale: "en" },
      rt.files,
      params.id ?? "",
    );
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
