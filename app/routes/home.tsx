import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { guard, homeFor } from "~/modules/auth/guard.server";
import { commitSession } from "~/modules/auth/session.server";

/** `/`: the saved target if there is one, else incidents for technicians and the dashboard for others. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await guard(request, context);
  const { session } = context.auth;
  const saved = session.get("redirectTo");
  if (saved) {
    session.unset("redirectTo");
    // A saved target never leaves the app, and never loops back here.
    const target = safeRedirectPath(saved, homeFor(user!.role));
    return redirect(target === "/" ? homeFor(user!.role) : target, { headers: { "Set-Cookie": await commitSession(session) } });
  }
  return redirect(homeFor(user!.role));
}
