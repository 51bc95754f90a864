import { randomUUID } from "node:crypto";
import { createCookieSessionStorage } from "@remix-run/node";
import { config } from "~/config.server";

/**
 * Flash toasts: an action stores a message key in a short-lived signed cookie and redirects; the
 * next page's root loader reads it once (and clears it) and renders the translated toast, with or
 * without JavaScript.
 */
export interface ToastMessage {
  type: "success" | "error" | "info";
  /** i18n key of the title, translated when the toast is shown. */
  key: string;
  params?: Record<string, string | number>;
}

type FlashData = { toast: ToastMessage };
let storage: ReturnType<typeof createCookieSessionStorage<FlashData, FlashData>> | undefined;
function toastStorage() {
  storage ??= createCookieSessionStorage<FlashData, FlashData>({
    cookie: {
      name: "toast",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secrets: [config().SESSION_SECRET],
      secure: config().APP_URL.startsWith("https://"),
    },
  });
  return storage;
}

/** The Set-Cookie header that carries a toast to the next page. */
export async function toastHeader(toast: ToastMessage): Promise<string> {
  const session = await toastStorage().getSession();
  session.flash("toast", toast);
  return toastStorage().commitSession(session);
}

/** Reads (and consumes) the pending toast, if any. */
export async function readToast(request: Request): Promise<{ toast: (ToastMessage & { id: string }) | null; setCookie: string | null }> {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  const toast = session.get("toast") as ToastMessage | undefined;
  if (!toast) return { toast: null, setCookie: null };
  return { toast: { ...toast, id: randomUUID() }, setCookie: await toastStorage().commitSession(session) };
}
