import { pdfResponse } from "./printing.server";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { type Deferred, deferred } from "~/core/input";
import { idParam, parseJson } from "~/http/api.server";
import { readFormData, refuseControlCharacters, uploadsOf } from "~/http/form-action.server";
import { publicOrigin } from "~/http/public-url.server";
import { asDomainError, DomainError, ValidationError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { apiFiles } from "~/modules/files/api-body";
import type { FilesContext, Upload } from "~/modules/files/uploads.server";
import { commentNotFound, incidentNotFound } from "~/modules/incidents/queries.server";
import { MAX_DOWNTIME_MINUTES } from "~/modules/incidents/schema";
import type { CommentWrite } from "~/modules/incidents/service.server";
import { workOrder } from "~/modules/incidents/work-order.server";

/**
 * What the incident calls under /api/incidents share: the ids of the address
 * (anything but 1 to 9 digits, or 0, is "Incident not found" before the database is asked), bodies
 * that carry files (multipart, or JSON with base64 data URLs as the equipment calls take them), the
 * comment failures of SPEC.md section 8, and the work order PDF.
 */

/** The incident id of the address; a malformed one is 404 INCIDENT_NOT_FOUND. */
export function incidentIdParam(params: { id?: string }): number {
  const id = idParam(params.id);
  if (!id) throw incidentNotFound();
  return id;
}

/** The comment id of the address; a malformed one is 404 COMMENT_NOT_FOUND. */
export function commentIdParam(params: { commentId?: string }): number {
  const id = idParam(params.commentId);
  if (!id) throw commentNotFound();
  return id;
}

/**
 * A JSON body read (JSON, no control characters) when the verb asks for it, and validated by the verb
 * itself with its schema: the incident verbs parse their input after their permission check.
 */
export function verbBody<T>(request: Request): Deferred<T> {
  return deferred(() => parseJson(request, z.unknown()) as Promise<T>);
}

/** `size` from the query (1 to `max`, `fallback` when absent); anything else is 400 INVALID_LIST_QUERY. */
export function sizeParam(params: URLSearchParams, max: number, fallback: number): number {
  const value = params.get("size");
  if (value === null) return fallback;
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new ValidationError({ size: ["errors.list.size"] }, "errors.list.invalid", "INVALID_LIST_QUERY");
  }
  return Number(value);
}

/** `dir=asc|desc` from the query (oldest or newest first; `fallback` when absent); else 400 INVALID_LIST_QUERY. */
export function newestFirstParam(params: URLSearchParams, fallback: boolean): boolean {
  const value = params.get("dir");
  if (value === null) return fallback;
  if (value === "asc" || value === "desc") return value === "desc";
  throw new ValidationError({ dir: ["errors.list.dir"] }, "errors.list.invalid", "INVALID_LIST_QUERY");
}

export const CommentBodySchema = z.object({ body: z.unknown().optional(), files: apiFiles() });
export const FilesBodySchema = z.object({ files: apiFiles() });

function isMultipart(request: Request): boolean {
  return (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

async function formOf(request: Request, ctx: FilesContext): Promise<FormData> {
  const formData = await readFormData(request, ctx.files.maxBytes);
  refuseControlCharacters(formData);
  return formData;
}

/**
 * A comment's body, read when the verb asks for it: multipart (`body`, files in `files`) or JSON
 * `{ body, files?: [{ name, data }] }`.
 */
export function commentBody(request: Request, ctx: FilesContext): Deferred<CommentWrite> {
  // The text is checked by the verb (CommentSchema), after its permission check.
  return deferred(async () => {
    if (isMultipart(request)) {
      const formData = await formOf(request, ctx);
      return { body: formData.get("body") ?? undefined, files: await uploadsOf(formData, "files") } as CommentWrite;
    }
    const parsed = await parseJson(request, CommentBodySchema);
    return { body: parsed.body, files: parsed.files } as CommentWrite;
  });
}

/** Files to add: multipart (`files`) or JSON `{ files: [{ name, data }] }`. */
export function filesBody(request: Request, ctx: FilesContext): Deferred<{ files: Upload[] }> {
  return deferred(async () => {
    if (isMultipart(request)) return { files: await uploadsOf(await formOf(request, ctx), "files") };
    return { files: (await parseJson(request, FilesBodySchema)).files };
  });
}

/**
 * Runs a comment verb; an unexpected failure (not a refusal) answers the comment message of SPEC.md
 * section 8 ("Could not post the comment, ...") with status 500 instead of the generic one.
 */
export async function commentCall<T>(what: "post" | "update" | "delete", call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Response) throw error;
    const known = asDomainError(error);
    if (known) throw known;
    logger().error({ err: error, what }, "incident comment failed");
    const key = what === "post" ? "commentPost" : what === "update" ? "commentUpdate" : "commentDelete";
    throw new DomainError(`COMMENT_${what.toUpperCase()}_FAILED`, `incidents:errors.${key}`, 500);
  }
}

/**
 * The work order of an incident in reach as a PDF answer (inline, `work-order-<shortId>.pdf`); the
 * QR code points at the public address occupiers reach the app at.
 */
export async function workOrderResponse(args: { request: Request; context: AppLoadContext }, ctx: FilesContext, id: number): Promise<Response> {
  const { pdf, fileName } = await workOrder(ctx, id, { origin: publicOrigin(args) });
  return pdfResponse(pdf, fileName, "inline");
}

/**
 * The documented body of PUT /api/incidents/{id}/downtime (OpenAPI): the verb reads it with
 * DowntimeSchema, whose transforms JSON Schema cannot express.
 */
export const DowntimeBodySchema = z
  .object({
    equipmentDown: z.boolean().describe("The equipment is out of service because of this incident; false clears the downtime set by hand"),
    downtimeMinutes: z.number().int().min(0).max(MAX_DOWNTIME_MINUTES).nullable().optional().describe("The downtime set by hand, in minutes; null or left out: from the report to Done"),
    downtimeHours: z.union([z.number().min(0), z.string()]).nullable().optional().describe('The same in hours ("1,5" or 1.5, at most 2 decimals); not with downtimeMinutes'),
  })
  .meta({ title: "DowntimeBody" });
