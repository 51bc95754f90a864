import { openApiDocument } from "~/http/openapi/document.server";
import { renderDocsPage } from "~/http/openapi/docs-page.server";

/** GET /api/docs: the OpenAPI document as a self-contained, server-rendered reference page (decision 056). */
export function loader() {
  return new Response(renderDocsPage(openApiDocument()), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
