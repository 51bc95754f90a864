import type { ActionFunctionArgs } from "@remix-run/node";
import { parseJson, requestLocale, toApiError } from "~/http/api.server";
import { RefreshSchema } from "~/modules/auth/schema";
import { refresh, tokenPairBody } from "~/modules/auth/service.server";

/** POST /api/authentication/refresh-token { jwtToken, refreshToken } → a new pair (the old refresh token is spent). */
export async function action({ request, context }: ActionFunctionArgs) {
  const locale = await requestLocale(request);
  try {
    const input = await parseJson(request, RefreshSchema);
    const pair = await refresh(context.runtime.auth, input);
    return Response.json(tokenPairBody(pair));
  } catch (error) {
    return toApiError(error, locale);
  }
}

export function loader() {
  return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
}
