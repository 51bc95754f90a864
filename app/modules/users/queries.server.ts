import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { entities, users } from "~/db/schema";

/** The signed-in user's profile and entity branding, loaded once per page by the root loader. */
export async function getProfile(db: Db, userId: number, entityId: number) {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      surname: users.surname,
      email: users.email,
      role: users.role,
      language: users.language,
      pictureFileId: users.pictureFileId,
      entity: {
        id: entities.id,
        name: entities.name,
        templateColor: entities.templateColor,
        templateTextColor: entities.templateTextColor,
        logoFileId: entities.logoFileId,
      },
    })
    .from(users)
    .innerJoin(entities, eq(entities.id, users.entityId))
    .where(and(eq(users.id, userId), eq(users.entityId, entityId), isNull(users.archivedAt), isNull(entities.archivedAt)))
    .limit(1);
  return row ?? null;
}
export type Profile = NonNullable<Awaited<ReturnType<typeof getProfile>>>;
