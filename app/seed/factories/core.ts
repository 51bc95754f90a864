import { randomBytes } from "node:crypto";
import type { Db } from "~/db/client.server";
import { Role, UserStatus } from "~/db/enums";
import { type Entity, entities, type NewEntity, type NewUser, type User, type UserLinkedObject, userLinkedObjects, users } from "~/db/schema";
import { hashPassword } from "~/modules/auth/password.server";

/** The password of every factory-made and demo account unless told otherwise. */
export const DEFAULT_PASSWORD = "Demo-pass-1!";

/** Tenant-owned rows: `entityId` is required, every other column is optional. */
export type Overrides<T extends { entityId: number }> = Partial<Omit<T, "entityId">> & { entityId: number };

let counter = 0;
/** Per-process tag so that default emails do not collide across processes sharing a database. */
const processTag = randomBytes(3).toString("hex");

/** A process-wide increasing number for default names. */
export function sequence(): number {
  return ++counter;
}

let defaultHash: Promise<string> | undefined;

/** The argon2 hash of DEFAULT_PASSWORD, computed once per process (hashing costs ~50 ms). */
export function defaultPasswordHash(): Promise<string> {
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  return defaultHash;
}

export async function createEntity(db: Db, overrides: Partial<NewEntity> = {}): Promise<Entity> {
  const n = sequence();
  const [row] = await db
    .insert(entities)
    .values({
      name: `Entity ${n}`,
      vatNumber: `BE0${String(100000000 + n).slice(-9)}`,
      streetName: "Rue de la Station",
      streetNumber: String(n),
      postalCode: "1000",
      city: "Brussels",
      country: "BE",
      billingSameAsAddress: true,
      greetingEn: "Hello! Tell us what is wrong.",
      ...overrides,
    })
    .returning();
  return row;
}

export type CreateUserOverrides = Overrides<NewUser> & {
  /** Plain password to hash (default DEFAULT_PASSWORD); `null` for an account without a password. */
  password?: string | null;
};

/**
 * An ACTIVE technician with the default password, unless overridden. Pass `passwordHash` to skip
 * hashing, or `password: null` / `passwordHash: null` for an account without a password.
 */
export async function createUser(db: Db, overrides: CreateUserOverrides): Promise<User> {
  const { password, ...columns } = overrides;
  const n = sequence();
  let passwordHash: string | null;
  if (columns.passwordHash !== undefined) passwordHash = columns.passwordHash;
  else if (password === null) passwordHash = null;
  else if (password === undefined || password === DEFAULT_PASSWORD) passwordHash = await defaultPasswordHash();
  else passwordHash = await hashPassword(password);

  const [row] = await db
    .insert(users)
    .values({
      email: `user-${n}-${processTag}@example.test`,
      name: "Test",
      surname: `User ${n}`,
      role: Role.TECHNICIAN,
      status: UserStatus.ACTIVE,
      ...columns,
      passwordHash,
    })
    .returning();
  return row;
}

export type LinkTarget = { facilityId: number; buildingId?: never } | { buildingId: number; facilityId?: never };

/** Gives a technician or facility manager access to a facility (and all its buildings) or one building. */
export async function linkUserTo(
  db: Db,
  overrides: { entityId: number; userId: number } & LinkTarget,
): Promise<UserLinkedObject> {
  const [row] = await db
    .insert(userLinkedObjects)
    .values({
      entityId: overrides.entityId,
      userId: overrides.userId,
      facilityId: overrides.facilityId ?? null,
      buildingId: overrides.buildingId ?? null,
    })
    .returning();
  return row;
}
