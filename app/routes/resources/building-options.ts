import type { LoaderFunctionArgs } from "@remix-run/node";
import { serviceContext } from "~/http/route-context.server";
import { decodeCursor } from "~/lib/cursor.server";
import { intParam, searchParam } from "~/lib/list-query";
import { requireUser } from "~/modules/auth/guard.server";
import { searchBuildingOptions } from "~/modules/facilities/queries.server";

/**
 * GET /building-options?q=&after=&facilityId=: one page of the building picker (JSON `{ options: [{ id,
 * name, facilityId, facilityName }], next }`), the buildings the signed-in user may reach, by name after
 * the cursor `after`. A malformed cursor is 400.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const params = new URL(request.url).searchParams;
  const after = params.get("after");
  if (after !== null && !decodeCursor(after)) {
    return Response.json({ code: "INVALID_CURSOR", message: "Invalid cursor" }, { status: 400 });
  }
  const ctx = await serviceContext({ request, context }, user);
  const page = await searchBuildingOptions(ctx, { q: searchParam(params), after, facilityId: intParam(params, "facilityId") });
  return Response.json(page, { headers: { "Cache-Control": "private, no-store" } });
}
