import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { OfflineWriteApplied, offlineWriteApplied, offlineWriteOf } from "~/core/offline-writes.server";
import { KEPT_FOR_HEADER, personKey } from "~/lib/offline-rules";
import { mayOpen } from "~/modules/auth/guard.server";
import { commitSession } from "~/modules/auth/session.server";
import { type Access, routesById } from "~/route-access";
import { escapedErrorResponse } from "./input-errors.server";

/**
 * The one access gate, deny by default. It wraps the loader and the action of every route module of
 * the server build, so it decides from the id of the route Remix matched (never from the text of the
 * path: `/FACILITIES`, `/%66acilities`, `/facilities//` and `/facilities.data` all match the route
 * "facilities" and get its rule). A route id that `route-access.ts` does not list is refused.
 *
 * Rules (SPEC.md sections 2 and 6): a signed-in user opening a visitor page goes home; a signed-out
 * visitor opening a secured page is sent to login (the address is saved for after it); a user whose
 * role is not allowed goes to the forbidden page. REST routes authenticate their bearer token
 * themselves (apiRoute) and answer 401 in JSON.
 *
 * The same wrapper turns what a handler let escape and the request caused into its answer, never a 500:
 * database errors caused by input (a NUL byte, a number out of range) are a 400, a service's refusal (a
 * filter naming another entity's facility) its status (input-errors.server.ts).
 */
type Args = LoaderFunctionArgs | ActionFunctionArgs;
type Handler = (args: Args) => unknown;

export async function applyGate(access: Access | undefined, args: Args): Promise<void> {
  const { request, context } = args;
  if (!access) throw new Response("Not Found", { status: 404 });
  const user = context.auth.user;
  switch (access) {
    case "public":
    case "api":
      return;
    case "visitor":
      if (user) throw redirect("/");
      return;
    case "user":
    case "manager":
    case "admin":
      if (!user) throw await toLogin(request, context);
      if (!mayOpen({ access }, user.role)) throw redirect("/forbidden");
      // A page the service worker keeps for one person (issue 64) is never read with another person's session.
      if (keptForSomeoneElse(request, user)) throw new Response(null, { status: 409 });
      // A post it sends again whose first send was applied (the answer was lost on the way): done already.
      await notAppliedTwice(request, context, user);
      return;
  }
}

function keptForSomeoneElse(request: Request, user: { id: number; entityId: number }): boolean {
  const keptFor = request.headers.get(KEPT_FOR_HEADER);
  return keptFor !== null && keptFor !== personKey(user.entityId, user.id);
}

async function notAppliedTwice(request: Request, context: AppLoadContext, user: { id: number; entityId: number }): Promise<void> {
  const write = offlineWriteOf(request, user);
  if (write && (await offlineWriteApplied(context.runtime.services.db, write))) throw appliedAlready(request);
}

/** The answer to a post applied before: back to its page, as after the first send. */
function appliedAlready(request: Request): Response {
  const url = new URL(request.url);
  return redirect(`${url.pathname}${url.search}`, 303);
}

async function toLogin(request: Request, context: AppLoadContext): Promise<Response> {
  const url = new URL(request.url);
  const { session } = context.auth;
  if (request.method === "GET" && !url.pathname.endsWith(".data")) {
    session.set("redirectTo", `${url.pathname}${url.search}`);
  }
  return redirect("/login", { headers: { "Set-Cookie": await commitSession(session) } });
}

/** A loader or action behind the gate (exported for the tests that call route modules directly). */
export function gated(access: Access | undefined, handler: Handler | undefined): Handler {
  return async (args) => {
    await applyGate(access, args);
    if (!handler) return null;
    try {
      return await handler(args);
    } catch (error) {
      if (error instanceof OfflineWriteApplied) throw appliedAlready(args.request);
      throw escapedErrorResponse(error, { api: access === "api" }) ?? error;
    }
  };
}

const secured = new WeakMap<ServerBuild, ServerBuild>();

/** The server build with every route's loader and action behind the gate (memoised per build). */
export function secureBuild(build: ServerBuild): ServerBuild {
  const known = secured.get(build);
  if (known) return known;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const access = routesById.get(id)?.access;
    const module = route.module as unknown as Record<string, unknown>;
    routes[id] = {
      ...route,
      module: {
        ...route.module,
        // Every route gets a loader, so a screen without one is still gated on document requests.
        loader: gated(access, module.loader as Handler | undefined),
        ...(module.action ? { action: gated(access, module.action as Handler) } : {}),
      } as typeof route.module,
    };
  }
  const result = { ...build, routes };
  secured.set(build, result);
  return result;
}
