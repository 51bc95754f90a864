import type { LoaderFunctionArgs } from "@remix-run/node";
import { serviceContext } from "~/http/route-context.server";
import { personKey } from "~/lib/offline-rules";
import { requireUser } from "~/modules/auth/guard.server";
import { keptAddresses, keptPages } from "~/modules/offline/kept-pages.server";

/**
 * GET /offline/pages: the addresses the service worker keeps for the signed-in person (JSON `{ person,
 * pages, files }`, issue 64). Asked for someone else (`X-Kept-For` naming another person than the
 * session's), the gate answers 409 (app/http/gate.server.ts) and the worker drops that copy.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const person = personKey(user.entityId, user.id);
  const ctx = await serviceContext({ request, context }, user);
  const kept = await keptPages(ctx);
  return Response.json({ person, ...keptAddresses(kept) }, { headers: { "Cache-Control": "private, no-store" } });
}
