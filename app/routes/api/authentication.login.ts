import type { ActionFunctionArgs } from "@remix-run/node";
import { getT } from "~/i18n.server";
import { parseJson, requestLocale, toApiError } from "~/http/api.server";
import { LoginSchema } from "~/modules/auth/schema";
import { AuthError, login, LoginErrorCode, tokenPairBody } from "~/modules/auth/service.server";

/** POST /api/authentication/login { username, password } → tokens, role, ids, errorCode. */
export async function action({ request, context }: ActionFunctionArgs) {
  const locale = await requestLocale(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
  try {
    const input = await parseJson(request, LoginSchema);
    const pair = await login(context.runtime.auth, { email: input.username, password: input.password, address: context.clientAddress });
    return Response.json({ ...tokenPairBody(pair), errorCode: LoginErrorCode.NONE });
  } catch (error) {
    if (error instanceof AuthError) {
      return Response.json(
        { jwtToken: null, refreshToken: null, role: null, userId: null, entityId: null, errorCode: error.loginErrorCode, code: error.code, message: getT(locale)(error.messageKey) },
        { status: error.status },
      );
    }
    return toApiError(error, locale);
  }
}

export function loader() {
  return Response.json({ code: "METHOD_NOT_ALLOWED" }, { status: 405 });
}
