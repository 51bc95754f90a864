import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { importJobJson, startImportFromApi } from "~/http/imports.server";
import { listImportJobs } from "~/modules/imports/queries.server";

/**
 * GET /api/imports?limit (managers and administrators): the entity's latest imports, newest first, each
 * with its type, status (0 waiting, 1 running, 2 done, 3 failed), progress (0..100), lines and errors.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx, locale }) => {
  const limit = Number(new URL(request.url).searchParams.get("limit") ?? 20);
  const jobs = await listImportJobs(ctx, Number.isInteger(limit) ? limit : 20);
  return jobs.map((job) => importJobJson(job, locale));
});

/**
 * POST /api/imports, multipart: `type` (SPEC.md section 3's import type: 0 facility .. 7 incident type,
 * or its template's name such as `rooms`) and `file` (.xlsx or .csv). 202 with the job (Location:
 * /api/imports/{id}); 400 `INVALID_TEMPLATE_DATA` with every faulty line (`errors`: line, column,
 * message), `UNKNOWN_IMPORT_TYPE`, `NOT_A_SPREADSHEET`, `FACILITY_NEEDED`; 409 `IMPORT_IN_PROGRESS`;
 * 413 for a file over the upload limit.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx, locale }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return startImportFromApi(request, ctx, locale);
});
