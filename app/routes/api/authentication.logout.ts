import type { LoaderFunctionArgs } from "@remix-run/node";
import { logout } from "~/modules/auth/service.server";
import { verifyAccessToken } from "~/modules/auth/tokens.server";

/**
 * GET /api/authentication/logout: ends the session of the bearer token when one is sent (even an
 * expired one). Always answers `{ responseCode: 0 }`, so a client can always clear its storage.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const rt = context.runtime;
  const token = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  const claims = token ? await verifyAccessToken(rt.auth.jwtSecret, token, { ignoreExpiry: true }) : null;
  if (claims) await logout(rt.auth, { sessionId: claims.sessionId });
  return Response.json({ responseCode: 0 });
}
