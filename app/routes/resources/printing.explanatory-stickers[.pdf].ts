import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { formDataOf } from "~/http/form-action.server";
import { pdfResponse, printRefused } from "~/http/printing.server";
import { serviceContext } from "~/http/route-context.server";
import { requireUser } from "~/modules/auth/guard.server";
import { printFormValues } from "~/modules/printing/schema";
import { printExplanatoryStickers } from "~/modules/printing/service.server";

/**
 * POST /printing/explanatory-stickers.pdf (managers and administrators): the entity's explanatory
 * sticker, the posted number of copies (at least 1) from the posted starting row (at most 7) and
 * column, as a PDF download; a refused print goes back to /printing?tab=stickers with the input.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  const formData = await formDataOf(request);
  try {
    const result = await printExplanatoryStickers(ctx, printFormValues(formData));
    return pdfResponse(result.pdf, result.fileName);
  } catch (error) {
    return printRefused(error, formData, "stickers");
  }
}

export function loader() {
  return redirect("/printing?tab=stickers");
}
