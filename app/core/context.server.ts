import type { Db } from "~/db/client.server";
import type { Role } from "~/db/enums";

export interface Actor {
  id: number;
  role: Role;
}

/**
 * What every service verb takes first: the database (or a transaction), the tenant, the acting
 * user and the language. Services filter every read and write by `entityId`.
 */
export interface ServiceContext {
  db: Db;
  entityId: number;
  actor: Actor | null;
  locale: string;
}
