import { redirect, type AppLoadContext } from "@remix-run/node";
import { Role } from "~/db/enums";
import { screens, type Screen } from "~/route-access";
import { commitSession } from "./session.server";
import type { AuthUser } from "./service.server";

/**
 * The navigation guards of SPEC.md section 2, applied by every screen's loader and action from the one
 * table in `route-access.ts`:
 * - a signed-in user opening a visitor page (login, sign-up, reset) goes home;
 * - a secured page opened while signed out saves the address and goes to login;
 * - a page whose allowed roles do not include the user's goes to the forbidden page.
 */
const MANAGER_ROLES: readonly number[] = [Role.FACILITY_MANAGER, Role.ADMINISTRATOR];

export function isManager(role: number): boolean {
  return MANAGER_ROLES.includes(role);
}

export function mayOpen(screen: Pick<Screen, "access">, role: number | null): boolean {
  switch (screen.access) {
    case "public":
      return true;
    case "visitor":
      return role === null;
    case "user":
      return role !== null;
    case "manager":
      return role !== null && isManager(role);
  }
}

const compiled = screens.map((screen) => ({
  screen,
  pattern: new RegExp(`^/${screen.path.split("/").map((part) => (part.startsWith(":") ? "[^/]+" : escape(part))).join("/")}/?$`),
}));
function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The screen an address belongs to (single-fetch `.data` addresses included). */
export function screenForPath(pathname: string): Screen | undefined {
  let path = pathname.replace(/\.data$/, "");
  if (path === "/_root") path = "/";
  return compiled.find((c) => c.pattern.test(path))?.screen;
}

/** Where a user lands: the saved target, else incidents for technicians and the dashboard for others. */
export function homeFor(role: number): string {
  return role === Role.TECHNICIAN ? "/incidents" : "/dashboard";
}

/**
 * Applies the guard for the request's screen; returns the signed-in user (or null on public pages).
 * Throws the redirect to login, home or the forbidden page.
 */
export async function guard(request: Request, context: AppLoadContext): Promise<AuthUser | null> {
  const url = new URL(request.url);
  const screen = screenForPath(url.pathname);
  const { user, session } = context.auth;
  if (!screen || screen.access === "public") return user;
  if (screen.access === "visitor") {
    if (user) throw redirect("/");
    return null;
  }
  if (!user) {
    if (request.method === "GET" && !url.pathname.endsWith(".data")) {
      session.set("redirectTo", `${url.pathname}${url.search}`);
    }
    throw redirect("/login", { headers: { "Set-Cookie": await commitSession(session) } });
  }
  if (!mayOpen(screen, user.role)) throw redirect("/forbidden");
  return user;
}

/** The guard for a screen that requires a user: returns the user, never null. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<AuthUser> {
  const user = await guard(request, context);
  if (!user) throw redirect("/login");
  return user;
}
