import type { AuthState } from "~/modules/auth/session.server";
import type { Runtime } from "~/runtime.server";

/** What server.ts hands every loader and action (see getLoadContext there). */
declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    requestId: string;
    clientAddress: string;
    auth: AuthState;
    /** The process services (database, files, queue, mailer, events, config), created at boot. */
    runtime: Runtime;
  }
}

export {};
