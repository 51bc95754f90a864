import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { LoginFormSchema } from "./schema";
import { type AuthDeps, login, type TokenPair } from "./service.server";

/**
 * remix-auth with the form strategy for one login request: it calls the same authentication service
 * as the REST login with the app's auth deps and the client's address (so the per-address limit
 * counts this client, not everyone), and the route keeps the resulting tokens in the cookie session.
 * Built per request: the strategy sees a clone of the request, so nothing can be keyed on it.
 */
export function formAuthenticator(auth: AuthDeps, clientAddress: string): Authenticator<TokenPair> {
  const authenticator = new Authenticator<TokenPair>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const input = LoginFormSchema.parse({ email: form.get("email"), password: form.get("password") });
      return login(auth, { email: input.email, password: input.password, address: clientAddress });
    }),
    "form",
  );
  return authenticator;
}
