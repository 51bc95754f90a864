import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, jsonBody, methodNotAllowed } from "~/http/api.server";
import { pdfResponse } from "~/http/printing.server";
import { ExplanatoryStickersSchema } from "~/modules/printing/schema";
import { printExplanatoryStickers } from "~/modules/printing/service.server";

/**
 * POST /api/printing/explanatory-stickers { copies (at least 1), startRow (at most 7), startColumn }
 * (managers and administrators): the PDF of the entity's explanatory sticker on the label sheets.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const result = await printExplanatoryStickers(ctx, jsonBody(request, ExplanatoryStickersSchema));
  return pdfResponse(result.pdf, result.fileName);
});

export const loader = apiRoute(async () => methodNotAllowed("POST"));
