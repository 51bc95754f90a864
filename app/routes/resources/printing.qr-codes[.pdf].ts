import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { formDataOf } from "~/http/form-action.server";
import { pdfResponse, printingAddress, printRefused } from "~/http/printing.server";
import { publicOrigin } from "~/http/public-url.server";
import { serviceContext } from "~/http/route-context.server";
import { toastHeader } from "~/http/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { printFormValues } from "~/modules/printing/schema";
import { printQrCodes } from "~/modules/printing/service.server";

/**
 * POST /printing/qr-codes.pdf (the "Print QR codes" button of /printing, managers and administrators):
 * the sticker sheets of the posted selection as a PDF download; the printed identifiers are marked
 * printed. A print past 50 sheets goes to the background: back to /printing with a toast, the PDF
 * arrives as a notification. A refused print goes back to /printing with the choices and the error.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  const formData = await formDataOf(request);
  try {
    const result = await printQrCodes(ctx, printFormValues(formData), { origin: publicOrigin({ request, context }) });
    if (result.kind === "pdf") return pdfResponse(result.pdf, result.fileName);
    return redirect(`/printing?${printingAddress(formData, "qr")}`, { status: 303, headers: { "Set-Cookie": await toastHeader({ type: "success", key: "printing:toast.background" }) } });
  } catch (error) {
    return printRefused(error, formData, "qr");
  }
}

/** A GET (a bookmarked address) shows the screen. */
export function loader() {
  return redirect("/printing");
}
