import { redirect } from "@remix-run/node";
import { isDomainError } from "~/lib/errors";
import { toastHeader } from "./toast.server";

/**
 * What the printing transports share (issue 48): the PDF answer, and the way back to /printing when a
 * print is refused: the posted style and start cell return in the address, with the error keys in `err`,
 * and an error toast; the chosen places never do (the screen checks a print first and answers a refusal
 * with the re-rendered form, so this way back is only for a print refused between the check and the print).
 */

/** The PDF as a download (or `inline`: shown by the browser, as the work order and the inspection report are). */
export function pdfResponse(pdf: Buffer, fileName: string, disposition: "attachment" | "inline" = "attachment"): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.byteLength),
      "Content-Disposition": `${disposition}; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** The message keys /printing shows from `err` (any other value is ignored). */
export const PRINT_ERROR_KEYS = new Set([
  "printing:errors.nothingToPrint",
  "printing:errors.notFound",
  "printing:errors.tooMany",
  "printing:errors.noSticker",
  "printing:errors.stickerFormat",
  "printing:validation.startRow",
  "printing:validation.startColumn",
  "printing:validation.copies",
  "printing:validation.copiesMax",
  "printing:validation.color",
  "printing:validation.tooMany",
  "common:validation.invalid",
]);

/** The chosen places: never put in an address (thousands of ids would make it longer than any server takes). */
const SELECTION_FIELDS = new Set(["facilityIds", "buildingIds", "roomIds", "equipmentItemIds"]);

/** The posted form as the address of /printing, without the error keys it may carry nor the chosen places. */
export function printingAddress(formData: FormData, tab: "qr" | "stickers"): URLSearchParams {
  const params = new URLSearchParams();
  if (tab === "stickers") params.set("tab", "stickers");
  for (const [name, value] of formData) {
    if (typeof value !== "string" || name === "err" || name === "tab" || name === "intent" || SELECTION_FIELDS.has(name)) continue;
    params.append(name, value.slice(0, 200));
  }
  return params;
}

/**
 * A refused print: back to /printing with the choices and the error keys (400s and 404s of the verb);
 * anything else is thrown on.
 */
export async function printRefused(error: unknown, formData: FormData, tab: "qr" | "stickers"): Promise<Response> {
  if (!isDomainError(error) || (error.status !== 400 && error.status !== 404)) throw error;
  const params = printingAddress(formData, tab);
  const keys = new Set([error.messageKey, ...Object.values(error.fieldErrors ?? {}).flat()].filter((k) => PRINT_ERROR_KEYS.has(k)));
  if (keys.size === 0) keys.add("common:validation.invalid");
  for (const key of keys) params.append("err", key);
  const first = [...keys][0];
  return redirect(`/printing?${params}`, { status: 303, headers: { "Set-Cookie": await toastHeader({ type: "error", key: first }) } });
}
