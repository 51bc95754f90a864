import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { guard, homeFor } from "~/modules/auth/guard.server";
import { commitSession } from "~/modules/auth/session.server";

/** `/`: the saved target if there is one, else incidents for technicians and the dashboard for others. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await guard(request, context);
  const { session } = context.auth;
  const target = session.get("redirectTo");
  if (target) {
    session.unset("redirectTo");
    return redirect(target, { headers: { "Set-Cookie": await commitSession(session) } });
  }
  return redirect(homeFor(user!.role));
}
