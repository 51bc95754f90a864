import { redirect, type AppLoadContext } from "@remix-run/node";
import { can, personActor } from "~/core/actor";
import { Role } from "~/db/enums";
import type { Access } from "~/route-access";
import type { AuthUser } from "./service.server";

/**
 * Who may open what (SPEC.md section 6). The access gate (app/http/gate.server.ts) applies these
 * rules to every request from the id of the route Remix matched, before any loader or action runs;
 * loaders then read the signed-in user with `requireUser`.
 */
/** Whether a person of `role` may open the screens SPEC.md section 2 lists for managers (the permission table). */
export function isManager(role: number): boolean {
  return can(personActor({ id: 0, role }), "open", "managerScreen");
}

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
      return role !== null && isManager(role);
  }
}

/** Where a user lands: the saved target, else incidents for technicians and the dashboard for others. */
export function homeFor(role: number): string {
  return role === Role.TECHNICIAN ? "/incidents" : "/dashboard";
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
