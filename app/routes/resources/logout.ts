import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { logout } from "~/modules/auth/service.server";
import { clearTokens, commitSession } from "~/modules/auth/session.server";

/** POST /logout: revokes the session's refresh tokens and clears the cookie session. */
export async function action({ context }: ActionFunctionArgs) {
  const { session, user } = context.auth;
  const sessionId = user?.sessionId ?? session.get("sessionId");
  if (sessionId) await logout(context.runtime.auth, { sessionId });
  clearTokens(session);
  return redirect("/login", { headers: { "Set-Cookie": await commitSession(session) } });
}

/** Logging out changes state, so it is a post; a plain visit goes home. */
export function loader() {
  return redirect("/");
}
