import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * What printing tells the rest of the app (decision 048): a background print's PDF is stored and ready.
 * Emitted by the print job (as the system) in the transaction that stores the file; the dispatcher turns
 * it into the "Sticker sheets ready to download" notification of the person who asked.
 */
export const printSheetsReady = defineChange({
  type: "printing.sheets-ready",
  payload: z.object({
    printJobId: z.number().int().positive(),
    requestedById: z.number().int().positive().nullable(),
    fileId: z.string().uuid(),
    stickers: z.number().int().positive(),
  }),
  subject: (p) => p.printJobId,
});
