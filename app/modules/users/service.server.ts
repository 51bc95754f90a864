import { and, eq, inArray, isNull, ne } from "drizzle-orm";
import { withTx } from "~/core/unit-of-work.server";
import type { Db } from "~/db/client.server";
import type { Priority, UserLanguage } from "~/db/enums";
import { buildings, refreshTokens, type User, users } from "~/db/schema";
import { type PersonLike, personWhoCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { hashPassword, verifyPassword } from "~/modules/auth/password.server";
import { treeScope } from "~/modules/facilities/policy.server";
import { parseInput } from "~/lib/validation";
import { checkImage, fileUrl, uploadsOf, type FilesContext } from "~/modules/files/uploads.server";
import { type ChangePasswordInput, ChangePasswordInputSchema, type SetLanguageInput, SetLanguageSchema, type UpdateAccountInput, UpdateAccountSchema } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * The signed-in user's own account: settings, password and language (SPEC.md sections 3, 5, 7).
 * A user changes only their own account; another entity's user is "not found".
 */

export interface AccountView {
  id: number;
  name: string;
  surname: string;
  language: UserLanguage;
  receiveNotification: boolean;
  notificationSettings: { priorities: Priority[]; buildingIds: number[] };
  /** `/files/<id>`, or null. */
  picture: string | null;
}

const userNotFound = () => new NotFoundError("settings:errors.userNotFound", "USER_NOT_FOUND");

function requireActor(ctx: ServiceContext): PersonLike {
  return personWhoCan(ctx.actor, "update", "account", "settings:errors.forbidden");
}

/** The target user in the caller's entity (NotFound otherwise), who must be the caller (Forbidden otherwise). */
async function findOwnUser(db: Db, ctx: ServiceContext, actor: PersonLike, userId: number, lock = false): Promise<User> {
  const query = db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw userNotFound();
  if (row.id !== actor.id) throw new ForbiddenError("settings:errors.ownAccountOnly");
  return row;
}

function toView(row: User): AccountView {
  return {
    id: row.id,
    name: row.name,
    surname: row.surname,
    language: row.language,
    receiveNotification: row.receiveNotification,
    notificationSettings: row.notificationSettings,
    picture: fileUrl(row.pictureFileId),
  };
}

/** Saves the signed-in user's own settings (name, language, notifications, picture). */
export async function updateAccount(ctx: FilesContext, raw: UpdateAccountInput): Promise<AccountView> {
  const actor = requireActor(ctx);
  const input = parseInput(UpdateAccountSchema, raw);
  const userId = input.userId ?? actor.id;
  const newPicture = input.updatePicture && input.newPicture ? input.newPicture : null;
  if (newPicture) checkImage(newPicture, ctx.files.maxBytes, { kind: "image", field: "newPicture" });
  const priorities = [...new Set(input.notificationSettings.priorities)].sort() as Priority[];
  const buildingIds = [...new Set(input.notificationSettings.buildingIds)].sort((a, b) => a - b);

  const saved = await withTx(ctx, async (txCtx, effects) => {
    const uploads = uploadsOf(txCtx, effects);
    const tx = txCtx.db;
    const current = await findOwnUser(txCtx.db, ctx, actor, userId, true);
    if (buildingIds.length) {
      const found = await tx
        .select({ id: buildings.id })
        .from(buildings)
        .where(
          and(eq(buildings.entityId, ctx.entityId), isNull(buildings.archivedAt), inArray(buildings.id, buildingIds), treeScope(ctx, "building")),
        );
      if (found.length !== buildingIds.length) {
        throw new NotFoundError("settings:errors.buildingNotFound", "BUILDING_NOT_FOUND");
      }
    }
    const pictureFileId = input.updatePicture
      ? await uploads.replace(current.pictureFileId, newPicture, { kind: "image", field: "newPicture" })
      : current.pictureFileId;
    const [row] = await tx
      .update(users)
      .set({
        name: input.name,
        surname: input.surname,
        language: input.language,
        receiveNotification: input.receiveNotification,
        notificationSettings: { priorities, buildingIds },
        pictureFileId,
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, current.id), eq(users.entityId, ctx.entityId)))
      .returning();
    await effects.audit({ action: AUDIT.account.update, recordType: "user", recordId: userId });
    return row;
  });
  return toView(saved);
}

/**
 * Changes the caller's own password: the old one must match, the new one must satisfy the policy.
 * Every other login session of the user is signed out (their refresh tokens are revoked).
 */
export async function changePassword(ctx: ServiceContext, raw: ChangePasswordInput): Promise<{ userId: number }> {
  const actor = requireActor(ctx);
  const input = parseInput(ChangePasswordInputSchema, raw);
  return withTx(ctx, async ({ db: tx }, effects) => {
    const user = await findOwnUser(tx, ctx, actor, input.userId, true);
    if (!(await verifyPassword(user.passwordHash, input.oldPassword))) {
      throw new ValidationError({ oldPassword: ["settings:password.wrongOld"] }, "settings:password.wrongOld", "WRONG_PASSWORD");
    }
    const now = new Date();
    await tx
      .update(users)
      .set({ passwordHash: await hashPassword(input.newPassword), updatedAt: now })
      .where(and(eq(users.id, user.id), eq(users.entityId, ctx.entityId)));
    await tx
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(refreshTokens.userId, user.id),
          eq(refreshTokens.entityId, ctx.entityId),
          isNull(refreshTokens.revokedAt),
          input.keepSessionId ? ne(refreshTokens.familyId, input.keepSessionId) : undefined,
        ),
      );
    await effects.audit({ action: AUDIT.account.changePassword, recordType: "user", recordId: input.userId });
    return { userId: user.id };
  });
}

/** Stores the caller's language (the language switch and the account tab). */
export async function setLanguage(ctx: ServiceContext, raw: SetLanguageInput): Promise<{ language: UserLanguage }> {
  const actor = requireActor(ctx);
  const input = parseInput(SetLanguageSchema, raw);
  const [row] = await ctx.db
    .update(users)
    .set({ language: input.language, updatedAt: new Date() })
    .where(and(eq(users.id, actor.id), eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
    .returning({ language: users.language });
  if (!row) throw userNotFound();
  return row;
}
