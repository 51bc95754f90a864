import fs from "node:fs";
import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam } from "~/http/api.server";
import { exportNotFound, getExportDownload } from "~/modules/exports/queries.server";

/**
 * GET /api/exports/{id}/file: the export's file, streamed from storage (an export of a million rows is
 * tens of megabytes); 404 EXPORT_NOT_FOUND before it is ready, after it expired, and for anyone who may
 * not see it.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw exportNotFound();
  const { file, path } = await getExportDownload(ctx, ctx.files, id);
  const body = Readable.toWeb(fs.createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "Content-Type": file.mimeType,
      "Content-Length": String(file.sizeBytes),
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.originalName)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
