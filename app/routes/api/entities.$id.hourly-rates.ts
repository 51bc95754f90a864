import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { ratesBody, ratesEntityParam } from "~/http/work-api.server";
import { getHourlyRates } from "~/modules/time-costs/queries.server";
import { setHourlyRates } from "~/modules/time-costs/service.server";

/**
 * GET /api/entities/{id}/hourly-rates (administrators; a token with the rate scope reaching the whole
 * entity): `{ currency, defaultRate, people: [{ id, name, email, rate }] }`, amounts as exact decimal
 * strings ("45.00"), null: none (a person's: the default). Another entity's id is 404 ENTITY_NOT_FOUND.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => getHourlyRates(ctx, ratesEntityParam(params)));

/**
 * PUT /api/entities/{id}/hourly-rates `{ currency, defaultRate, rates?: [{ userId, rate }] }`: sets the
 * currency, the default rate and the listed people's rates (the others keep theirs; a person not of the
 * entity refuses the whole body, 400 RATE_PERSON_NOT_FOUND). Time already recorded keeps its rate.
 * Answers the rates as GET does.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT") return methodNotAllowed("GET, PUT");
  const entityId = ratesEntityParam(params);
  await setHourlyRates(ctx, ratesBody(request), entityId);
  return getHourlyRates(ctx, entityId);
});
