import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, idParam, methodNotAllowed, parseJson } from "~/http/api.server";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { decodeDataUrl, PutEntityBodySchema } from "~/modules/entities/schema";
import { getEntity, updateEntity } from "~/modules/entities/service.server";

const notFound = () => new NotFoundError("settings:errors.entityNotFound", "ENTITY_NOT_FOUND");

/** GET /api/entities/{id}: the caller's entity (another entity's id is 404). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw notFound();
  return getEntity(ctx, id);
});

/**
 * PUT /api/entities/{id} (managers and administrators): name, vatNumber, greetingsMessages, address,
 * billingAddress (null, or `billingSameAsAddress: true`, for the same as the address), templateColor,
 * templateTextColor, the optional `timeZone` (an IANA name such as "America/New_York"; missing keeps
 * the current one, an unknown one is a 400 on the field), and the logo: `updateLogo` true replaces it
 * with `newLogo` (a base64 data URL, or null to remove it); `oldLogo` is accepted and ignored. Answers
 * the saved entity.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx, locale }) => {
  if (request.method !== "PUT") return methodNotAllowed("GET, PUT");
  const id = idParam(params.id);
  if (id === null) throw notFound();
  const input = deferred(async () => {
    const body = await parseJson(request, PutEntityBodySchema);
    let newLogo: { bytes: Uint8Array; name: string } | null = null;
    if (body.updateLogo && body.newLogo) {
      const bytes = decodeDataUrl(body.newLogo);
      if (!bytes) throw new ValidationError({ newLogo: ["settings:files.invalidData"] });
      newLogo = { bytes, name: "logo" };
    }
    const { oldLogo: _oldLogo, newLogo: _newLogo, ...fields } = body;
    return { ...fields, id, newLogo };
  });
  return updateEntity({ ...ctx, locale }, input);
});
