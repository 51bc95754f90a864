import { templateOf, templateResponse } from "~/http/imports.server";
import { screenLoader } from "~/http/screen.server";

/**
 * GET /import-template/{type}.xlsx or .csv (facility managers and administrators): an import type's
 * template (decision 054) in the page's language, as a download; an unknown name is the 404 page.
 */
export const loader = screenLoader(
  async ({ params }) => templateOf(params.file),
  ({ ctx, subject }) => templateResponse(ctx, subject),
);
