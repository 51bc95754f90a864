import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, jsonBody, methodNotAllowed } from "~/http/api.server";
import { pdfResponse } from "~/http/printing.server";
import { publicOrigin } from "~/http/public-url.server";
import { QrCodesSchema } from "~/modules/printing/schema";
import { printQrCodes } from "~/modules/printing/service.server";

/**
 * POST /api/printing/qr-codes { facilityIds, buildingIds, roomIds, equipmentItemIds, notPrintedOnly,
 * colors ("entity" | "custom"), background, textColor, logo, lines (room, building, floor, code),
 * language, startRow (1-7), startColumn (1-3) } (managers and administrators): 200 with the PDF of the
 * sticker sheets (the identifiers are marked printed), or, past 1,050 stickers, 202
 * `{ printJobId, stickers }`: the PDF arrives as a "Sticker sheets ready" notification. Nothing to
 * print is 400 NOTHING_TO_PRINT; a place out of reach or of another entity 404.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, context, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const result = await printQrCodes(ctx, jsonBody(request, QrCodesSchema), { origin: publicOrigin({ request, context }) });
  if (result.kind === "pdf") return pdfResponse(result.pdf, result.fileName);
  return Response.json({ printJobId: result.printJobId, stickers: result.stickers }, { status: 202 });
});

export const loader = apiRoute(async () => methodNotAllowed("POST"));
