import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam } from "~/http/api.server";
import { exportNotFound, getExport } from "~/modules/exports/queries.server";

/** GET /api/exports/{id}: one export's status, progress, row counts, expiry and file (another entity's, or another person's, is 404 EXPORT_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw exportNotFound();
  return getExport(ctx, id);
});
