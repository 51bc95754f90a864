import { openApiDocument } from "~/http/openapi/document.server";

/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of the REST API (decision 056), generated from the
 * route table and the zod schemas the routes use. Public: it describes calls, holds no data.
 */
export function loader() {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}
