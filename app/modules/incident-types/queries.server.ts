import { and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { incidentTypes } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";

/**
 * Reads of incident types needed before their own screens exist (issue #4 links them to rooms and
 * generic equipment). The name is multi-language: the user's language first, then the others.
 */
export function incidentTypeName(locale: string): SQL<string> {
  const order =
    locale.startsWith("fr")
      ? [incidentTypes.nameFr, incidentTypes.nameEn, incidentTypes.nameNl]
      : locale.startsWith("nl")
        ? [incidentTypes.nameNl, incidentTypes.nameEn, incidentTypes.nameFr]
        : [incidentTypes.nameEn, incidentTypes.nameFr, incidentTypes.nameNl];
  return sql<string>`coalesce(${order[0]}, ${order[1]}, ${order[2]})`;
}

export interface IncidentTypeOption {
  id: number;
  name: string;
}

/** Active incident types of the entity, by name in the user's language. */
export async function listIncidentTypeOptions(ctx: ServiceContext): Promise<IncidentTypeOption[]> {
  const name = incidentTypeName(ctx.locale);
  return ctx.db
    .select({ id: incidentTypes.id, name })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)))
    .orderBy(asc(sql`lower(${name})`), asc(incidentTypes.id));
}

/** The ids among `ids` that are active incident types of the entity (locked for share: call it in a transaction). */
export async function activeIncidentTypeIds(ctx: ServiceContext, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: incidentTypes.id })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt), inArray(incidentTypes.id, ids)))
    // Held until the caller's transaction ends, so the types cannot be archived in between.
    .for("share");
  return new Set(rows.map((r) => r.id));
}
