import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, idParam, methodNotAllowed, parseJson } from "~/http/api.server";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { decodeDataUrl, PatchStickerBodySchema } from "~/modules/entities/schema";
import { getExplanatorySticker, updateExplanatorySticker } from "~/modules/entities/service.server";

const notFound = () => new NotFoundError("settings:errors.entityNotFound", "ENTITY_NOT_FOUND");

/** GET /api/entities/{id}/explanatory-sticker: `{ explanatorySticker: "/files/<id>" | null, suggestedWidth, suggestedHeight }`. */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw notFound();
  return getExplanatorySticker(ctx, id);
});

/**
 * PATCH /api/entities/{id}/explanatory-sticker (managers and administrators): `newExplanatorySticker`
 * is a base64 data URL of the image, or null to remove it; `oldExplanatorySticker` is accepted and ignored.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  const id = idParam(params.id);
  if (id === null) throw notFound();
  const input = deferred(async () => {
    const body = await parseJson(request, PatchStickerBodySchema);
    let upload: { bytes: Uint8Array; name: string } | null = null;
    if (body.newExplanatorySticker) {
      const bytes = decodeDataUrl(body.newExplanatorySticker);
      if (!bytes) throw new ValidationError({ newExplanatorySticker: ["settings:files.invalidData"] });
      upload = { bytes, name: "explanatory-sticker" };
    }
    return { id, newExplanatorySticker: upload };
  });
  return updateExplanatorySticker(ctx, input);
});
