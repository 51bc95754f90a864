import { redirect, type AppLoadContext } from "@remix-run/node";
import { roleCan } from "~/core/actor";
import type { Access } from "~/route-access";
import type { AuthUser } from "./service.server";

/**
 * Who may open what (SPEC.md section 6). The access gate (app/http/gate.server.ts) applies these
 * rules to every request from the id of the route Remix matched, before any loader or action runs;
 * loaders then read the signed-in user with `requireUser`.
 */
/**
 * Whether a person of `role` (null: signed out) may open a route of `access`, as the permission table says:
 * the screens SPEC.md section 2 lists for managers need `open managerScreen`, the administration pages
 * for administrators alone (decision 057) `open adminScreen`.
 */
export function mayOpen(screen: { access: Access }, role: number | null): boolean {
  switch (screen.access) {
    case "public":
    case "api":
      return true;
    case "visitor":
      return role === null;
    case "user":
      return role !== null;
    case "manager":
      return roleCan(role, "open", "managerScreen");
    case "admin":
      return roleCan(role, "open", "adminScreen");
  }
}

/**
 * Where a user lands: the saved target, else the dashboard for those who may read it and incidents for
 * the others (SPEC.md section 6: technicians land on incidents, everyone else on the dashboard).
 */
export function homeFor(role: number): string {
  return roleCan(role, "read", "dashboard") ? "/dashboard" : "/incidents";
}

/** The signed-in user of the request, or null (the gate has already refused what needs one). */
export function currentUser(context: AppLoadContext): AuthUser | null {
  return context.auth.user;
}

/**
 * The signed-in user of a route that requires one. The gate has already sent signed-out visitors to
 * login and users without the role to the forbidden page; this only narrows the type (and refuses,
 * should a route ever be reached without the gate).
 */
export async function requireUser(_request: Request, context: AppLoadContext): Promise<AuthUser> {
  const user = context.auth.user;
  if (!user) throw redirect("/login");
  return user;
}

/** The user of a route open to everyone (null when signed out); the gate applied its rules already. */
export async function guard(_request: Request, context: AppLoadContext): Promise<AuthUser | null> {
  return context.auth.user;
}
