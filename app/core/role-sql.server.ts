import { type Column, type SQL, sql } from "drizzle-orm";
import { type Action, rolesThat, type Subject } from "./actor";

/**
 * A SQL condition on a person's role (`users.role`, or `u.role` in a raw query): one of the roles whose
 * people may do `action` to `subject` in the permission table (core/actor.ts), read when the query is
 * built, so that queries never name a role themselves. No such role: false.
 */
export function roleMay(role: Column | SQL, action: Action, subject: Subject): SQL {
  const roles = rolesThat(action, subject);
  if (!roles.length) return sql`false`;
  return sql`${role} in (${sql.join(
    roles.map((r) => sql`${r}`),
    sql`, `,
  )})`;
}
