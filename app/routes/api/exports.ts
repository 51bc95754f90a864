import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, jsonBody, methodNotAllowed } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { listExports } from "~/modules/exports/queries.server";
import { exportTypeOf, StartExportSchema } from "~/modules/exports/schema";
import { startExport } from "~/modules/exports/service.server";

/**
 * GET /api/exports?type=incidents (managers and administrators): the caller's recent exports (an
 * administrator's: the entity's), newest first, with status, progress, expiry and `fileId` (download
 * at /api/exports/{id}/file) once ready.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const param = new URL(request.url).searchParams.get("type");
  const type = param === null || param === "" ? null : exportTypeOf(param);
  if (param && type === null) throw new ValidationError({ type: ["exports:errors.type"] }, "exports:errors.type", "INVALID_EXPORT_TYPE");
  return listExports(ctx, { type });
});

/**
 * POST /api/exports { type: "incidents" (or SPEC's number), format: "xlsx" | "csv", filters: { the list
 * screen's parameters } }: 201 with the queued export. The file is written in the background; the
 * requester's "export ready" notification links to it.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await startExport(ctx, jsonBody(request, StartExportSchema)));
});
