import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { runtime } from "~/runtime.server";
import { LoginFormSchema } from "./schema";
import { login, type TokenPair } from "./service.server";

/** The client address of a login request, handed to the strategy (which only sees the request). */
export const loginAddress = new WeakMap<Request, string>();

/**
 * remix-auth with the form strategy: it calls the same authentication service as the REST login, and
 * the route keeps the resulting tokens in the cookie session.
 */
export const authenticator = new Authenticator<TokenPair>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const input = LoginFormSchema.parse({ email: form.get("email"), password: form.get("password") });
    return login((await runtime()).auth, { email: input.email, password: input.password, address: loginAddress.get(request) });
  }),
  "form",
);
