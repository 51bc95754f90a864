import type { AuthState } from "~/modules/auth/session.server";

/** What server.ts hands every loader and action (see getLoadContext there). */
declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    requestId: string;
    clientAddress: string;
    auth: AuthState;
  }
}

export {};
