import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, jsonBody, methodNotAllowed } from "~/http/api.server";
import { TranslateNamesSchema } from "~/modules/incident-types/schema";
import { translateNames } from "~/modules/incident-types/service.server";

/**
 * POST /api/incident-types/translate { nameEn, nameFr, nameNl, from } (managers and administrators):
 * fills the empty names from the one given (`from`, else the first given), with the translation
 * service when one is configured, else as copies marked untranslated. Saves nothing; answers
 * `{ nameEn, nameFr, nameNl, untranslated, from, outcome }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return translateNames(ctx, jsonBody(request, TranslateNamesSchema));
});

export const loader = apiRoute(() => methodNotAllowed("POST"));
