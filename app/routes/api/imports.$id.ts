import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam } from "~/http/api.server";
import { importJobJson } from "~/http/imports.server";
import { getImportJob, importNotFound } from "~/modules/imports/queries.server";

/** GET /api/imports/{id}: one import's status, progress and errors (another entity's is 404 IMPORT_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx, locale }) => {
  const id = idParam(params.id);
  if (id === null) throw importNotFound();
  return importJobJson(await getImportJob(ctx, id), locale);
});
