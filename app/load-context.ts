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
    /**
     * Aborts when the client's connection closes. Long answers (the notification stream) end on it:
     * the request a loader receives is a copy (Remix copies it twice) whose signal follows the
     * connection's only through weak references (undici), so once the copies are garbage-collected
     * the loader's `request.signal` never aborts.
     */
    connectionClosed?: AbortSignal;
  }
}

export {};
