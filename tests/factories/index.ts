/**
 * What tests build data with: the production factories (app/seed/factories, also used by the demo
 * seed) plus test-only helpers (images, cascaded trees, an entity's staff).
 */
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

export * from "~/seed/factories";
export { pngBytes, streamedWorkbook } from "./files";
export { claimedPngBytes, jpegWithExif } from "./images";
export { createStaff, type Staff, type StaffMember } from "./staff";

/**
 * Links a user (a facility manager or technician) to every facility of their entity that exists now,
 * archived ones included: the whole tree made so far within their reach (decision 022). Facilities
 * made afterwards need another call. Test setup only: the demo seed links its users explicitly.
 */
export async function linkToEveryFacility(db: Db, user: { id: number; entityId: number }): Promise<void> {
  await db.execute(sql`
    insert into user_linked_objects (entity_id, user_id, facility_id)
    select f.entity_id, ${user.id}::int, f.id from facilities f where f.entity_id = ${user.entityId}
    on conflict do nothing`);
}
