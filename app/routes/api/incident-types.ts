import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, jsonBody, listJson, methodNotAllowed } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { parseListQuery } from "~/lib/list-query";
import { INCIDENT_TYPE_SORTS, listIncidentTypes } from "~/modules/incident-types/queries.server";
import { IncidentTypeSchema } from "~/modules/incident-types/schema";
import { createIncidentType } from "~/modules/incident-types/service.server";

/** Reads `status` (0 none, 1 active); anything else is a 400 like a bad list parameter. */
function incidentTypeFilters(params: URLSearchParams): { status: number | null } {
  const values = params.getAll("status");
  if (values.length === 0) return { status: null };
  if (values.length === 1 && /^[01]$/.test(values[0])) return { status: Number(values[0]) };
  throw new ValidationError({ status: ["incidentTypes:validation.status"] }, "errors.list.invalid", "INVALID_LIST_QUERY");
}

/**
 * GET /api/incident-types?page&size&sort&dir&q&status (managers and administrators): the incident
 * types of the caller's entity, archived ones left out, as a JSON array with X-Total-Count. `sort` is
 * one of INCIDENT_TYPE_SORTS (default `name`, in the caller's language); `q` searches the three
 * names; `status` filters (0 none, 1 active). Each row holds where the type applies and its open
 * incidents.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: INCIDENT_TYPE_SORTS, defaultSort: "name", mode: "api" });
  return listJson(await listIncidentTypes(ctx, query, incidentTypeFilters(params)));
});

/**
 * POST /api/incident-types { nameEn, nameFr, nameNl, untranslated, defaultPriority, status,
 * reporterMayChangePriority, appliesEverywhere, defaultAssigneeIds, roomTypeIds, equipmentTypeIds,
 * roomIds, checklist: [{ question, tutorialLink, message, contentType }] } (managers and
 * administrators): 201 with the incident type. A name in at least one language; ids of another
 * entity are 400 REFERENCE_NOT_FOUND with a field error.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createIncidentType(ctx, jsonBody(request, IncidentTypeSchema)));
});
