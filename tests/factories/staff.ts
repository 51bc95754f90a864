import type { Db } from "~/db/client.server";
import { Role } from "~/db/enums";
import type { User } from "~/db/schema";
import { type CreateUserOverrides, createUser } from "~/seed/factories";

/** The three roles of one entity that most service and query tests act as. */
export interface Staff {
  admin: User;
  manager: User;
  technician: User;
}

/** What a test may set on one member of the staff (a name, a language, a status...); entity and role are fixed. */
export type StaffMember = Omit<CreateUserOverrides, "entityId" | "role">;

/**
 * An administrator, a facility manager and a technician of `entityId`, made in that order (so their ids
 * ascend alike in every file). `people` sets columns of any of them, e.g. `{ admin: { name: "Ada" } }`.
 * Nobody is linked to a facility: a test links the manager and technician where its subject needs reach.
 */
export async function createStaff(db: Db, entityId: number, people: Partial<Record<keyof Staff, StaffMember>> = {}): Promise<Staff> {
  const admin = await createUser(db, { ...people.admin, entityId, role: Role.ADMINISTRATOR });
  const manager = await createUser(db, { ...people.manager, entityId, role: Role.FACILITY_MANAGER });
  const technician = await createUser(db, { ...people.technician, entityId, role: Role.TECHNICIAN });
  return { admin, manager, technician };
}
