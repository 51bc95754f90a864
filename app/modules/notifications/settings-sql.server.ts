import { type SQL, sql } from "drizzle-orm";
import { users } from "~/db/schema";

/**
 * Whether a person's notification settings cover an incident (decision 028): its priority among the
 * chosen priorities and its building among the chosen buildings, an empty (or missing) list meaning all.
 * `buildingId` may be a subquery; null matches only people who chose no building.
 */
export function settingsCoverIncident(priority: number | null, buildingId: SQL | number | null): SQL {
  const building = buildingId === null ? sql`-1` : buildingId;
  return sql`(jsonb_array_length(coalesce(${users.notificationSettings}->'priorities', '[]'::jsonb)) = 0
      or ${users.notificationSettings}->'priorities' @> to_jsonb(${priority ?? -1}::int))
    and (jsonb_array_length(coalesce(${users.notificationSettings}->'buildingIds', '[]'::jsonb)) = 0
      or ${users.notificationSettings}->'buildingIds' @> to_jsonb((${building})::int))`;
}
