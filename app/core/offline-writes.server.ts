import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isUniqueViolation } from "~/db/errors.server";
import { offlineWrites } from "~/db/schema";
import { isWriteId, OFFLINE_WRITE_HEADER } from "~/lib/offline-rules";

/**
 * A form post the service worker sends again (issue 64, decision 067), named by the id it was given when it
 * was queued (`X-Offline-Write`). The unit of work that applies it records the id in its transaction
 * (`recordOfflineWrite`); a later send of the same post finds it (`offlineWriteApplied`) and is answered as
 * done, without applying it twice. Only a person's own posts count: the id is theirs, never another's.
 */
export interface OfflineWrite {
  entityId: number;
  userId: number;
  id: string;
  /** Set once the id is committed: a request's further units of work do not record it again. */
  recorded: boolean;
}

/** How long an id is remembered: longer than the worker keeps a waiting post. */
const KEPT_DAYS = 30;

/** The post's offline write from its header (`X-Offline-Write`), for a person's form post; null for any other request. */
export function offlineWriteOf(request: Request, user: { id: number; entityId: number }): OfflineWrite | null {
  const id = request.method === "POST" ? request.headers.get(OFFLINE_WRITE_HEADER) : null;
  return isWriteId(id) ? { entityId: user.entityId, userId: user.id, id: id.toLowerCase(), recorded: false } : null;
}

/** Thrown inside a unit of work when its offline write was applied before: the transaction rolls back. */
export class OfflineWriteApplied extends Error {
  constructor() {
    super("offline write already applied");
  }
}

/** Whether the person's write was applied already. */
export async function offlineWriteApplied(db: Db, write: OfflineWrite): Promise<boolean> {
  const [row] = await db
    .select({ id: offlineWrites.writeId })
    .from(offlineWrites)
    .where(and(eq(offlineWrites.userId, write.userId), eq(offlineWrites.writeId, write.id)))
    .limit(1);
  return Boolean(row);
}

/**
 * Records the write in the caller's transaction (before its work, so a second send at the same moment waits
 * on the key and then fails); its own ids older than the retention go with it.
 */
export async function recordOfflineWrite(db: Db, write: OfflineWrite): Promise<void> {
  try {
    await db.insert(offlineWrites).values({ entityId: write.entityId, userId: write.userId, writeId: write.id });
  } catch (error) {
    if (isUniqueViolation(error)) throw new OfflineWriteApplied();
    throw error;
  }
  await db.delete(offlineWrites).where(and(eq(offlineWrites.userId, write.userId), lt(offlineWrites.createdAt, sql`now() - make_interval(days => ${KEPT_DAYS})`)));
}
