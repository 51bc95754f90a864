import { and, eq, exists, gt, isNull, or, type SQL, sql } from "drizzle-orm";
import {
  dataJobs,
  entities,
  equipmentTypeFiles,
  equipmentTypes,
  incidentCommentFiles,
  incidentComments,
  incidentFiles,
  incidents,
  printJobs,
  reports,
  roomFiles,
  rooms,
  storedFiles,
  tasks,
  users,
} from "~/db/schema";
import type { FileStore, ServiceContext } from "~/core/context.server";
import { can } from "~/core/actor";
import { DataJobKind } from "~/db/enums";
import { now } from "~/lib/clock.server";
import { equipmentTypeReach, incidentReach, isEntityWide, treeScope } from "~/modules/facilities/policy.server";
import { fileNotFound, readBytes, type StoredFile } from "./storage.server";

/**
 * Who may download a stored file (GET /files/{id}): only a user who can reach the record that owns it.
 * Every owner of `stored_files` (the tables that reference it) grants its own readers:
 * - the entity's logo and explanatory sticker, and users' pictures: every user of the entity;
 * - a room's files and images: whoever may view the room (administrators; managers and technicians
 *   within their linked facilities and buildings, `treeScope`);
 * - a generic equipment's documentation: managers and administrators (the catalogue is entity-wide), and
 *   technicians with an item of that equipment in a room they reach (`equipmentTypeReach`);
 * - an incident's files and its comments' attachments: whoever may read the incident (`incidentReach`:
 *   administrators all; managers and technicians their rooms and items, and incidents assigned to them);
 *   removed comments grant nothing;
 * - a maintenance task's photo: whoever reaches the task's room (`treeScope`), like the task itself;
 * - a bug report's attachment: the reporter and the administrators;
 * - a background print's PDF (print_jobs): the person who asked for it, and the administrators, while
 *   they may print; never another facility manager, whose reach may not cover the sheets' rooms;
 * - an import's source: managers and administrators (the import/export screen);
 * - an export's result (decision 055): the person who asked for it, and the administrators, while they
 *   may export; never another facility manager, whose reach may not cover the export's rows.
 * A file no owner grants (unowned, another entity's, removed, unknown) is not found: the answer never
 * tells a file the user may not read from one that does not exist.
 */
export function fileReach(ctx: ServiceContext): SQL {
  const actor = ctx.actor;
  if (!actor) return sql`false`;
  const entityId = ctx.entityId;
  const dataFiles = can(actor, "import", "data") || can(actor, "export", "data");
  const select = () => ctx.db.select({ one: sql`1` });
  const owners: (SQL | undefined)[] = [
    exists(
      select()
        .from(entities)
        .where(
          and(
            eq(entities.id, entityId),
            or(eq(entities.logoFileId, storedFiles.id), eq(entities.explanatoryStickerFileId, storedFiles.id)),
          ),
        ),
    ),
    exists(select().from(users).where(and(eq(users.entityId, entityId), eq(users.pictureFileId, storedFiles.id)))),
    exists(
      select()
        .from(roomFiles)
        .innerJoin(rooms, eq(rooms.id, roomFiles.roomId))
        .where(
          and(
            eq(roomFiles.entityId, entityId),
            eq(roomFiles.fileId, storedFiles.id),
            isNull(rooms.archivedAt),
            treeScope(ctx, "room"),
          ),
        ),
    ),
    exists(
      select()
        .from(equipmentTypeFiles)
        .innerJoin(equipmentTypes, eq(equipmentTypes.id, equipmentTypeFiles.equipmentTypeId))
        .where(
          and(
            eq(equipmentTypeFiles.entityId, entityId),
            eq(equipmentTypeFiles.fileId, storedFiles.id),
            isNull(equipmentTypes.archivedAt),
            equipmentTypeReach(ctx),
          ),
        ),
    ),
    exists(
      select()
        .from(incidentFiles)
        .innerJoin(incidents, eq(incidents.id, incidentFiles.incidentId))
        .where(
          and(
            eq(incidentFiles.entityId, entityId),
            eq(incidentFiles.fileId, storedFiles.id),
            isNull(incidents.archivedAt),
            incidentReach(ctx),
          ),
        ),
    ),
    exists(
      select()
        .from(incidentCommentFiles)
        .innerJoin(incidentComments, eq(incidentComments.id, incidentCommentFiles.commentId))
        .innerJoin(incidents, eq(incidents.id, incidentComments.incidentId))
        .where(
          and(
            eq(incidentCommentFiles.entityId, entityId),
            eq(incidentCommentFiles.fileId, storedFiles.id),
            isNull(incidentComments.deletedAt),
            isNull(incidents.archivedAt),
            incidentReach(ctx),
          ),
        ),
    ),
    exists(
      select()
        .from(tasks)
        .innerJoin(rooms, eq(rooms.id, tasks.roomId))
        .where(and(eq(tasks.entityId, entityId), eq(tasks.photoFileId, storedFiles.id), treeScope(ctx, "room"))),
    ),
    exists(
      select()
        .from(reports)
        .where(
          and(
            eq(reports.entityId, entityId),
            eq(reports.fileId, storedFiles.id),
            can(actor, "read", "bugReport") ? undefined : eq(reports.userId, actor.id ?? -1),
          ),
        ),
    ),
    dataFiles
      ? exists(
          select()
            .from(dataJobs)
            .where(and(eq(dataJobs.entityId, entityId), eq(dataJobs.sourceFileId, storedFiles.id))),
        )
      : undefined,
    can(actor, "export", "data")
      ? exists(
          select()
            .from(dataJobs)
            .where(
              and(
                eq(dataJobs.entityId, entityId),
                eq(dataJobs.kind, DataJobKind.EXPORT),
                eq(dataJobs.resultFileId, storedFiles.id),
                isEntityWide(actor) ? undefined : eq(dataJobs.requestedById, actor.id ?? -1),
                // An expired export is gone for everyone, even before the nightly pass deletes its file.
                or(isNull(dataJobs.expiresAt), gt(dataJobs.expiresAt, new Date(now()))),
              ),
            ),
        )
      : undefined,
    can(actor, "print", "printing")
      ? exists(
          select()
            .from(printJobs)
            .where(
              and(
                eq(printJobs.entityId, entityId),
                eq(printJobs.resultFileId, storedFiles.id),
                // The sheets name rooms and equipment of the asker's reach: another manager's may not be theirs.
                isEntityWide(actor) ? undefined : eq(printJobs.requestedById, actor.id ?? -1),
              ),
            ),
        )
      : undefined,
  ];
  return or(...owners) ?? sql`false`;
}

/** A stored file of the entity that the actor may read (`fileReach`); NotFound otherwise. */
export async function getReadableFile(ctx: ServiceContext, id: string): Promise<StoredFile> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw fileNotFound();
  const [file] = await ctx.db
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.id, id), eq(storedFiles.entityId, ctx.entityId), isNull(storedFiles.deletedAt), fileReach(ctx)))
    .limit(1);
  if (!file) throw fileNotFound();
  return file;
}

/** GET /files/{id}: the file's row and bytes, for a user who may read it (`fileReach`); NotFound otherwise. */
export async function serveStoredFile(ctx: ServiceContext, store: FileStore, id: string): Promise<{ file: StoredFile; bytes: Buffer }> {
  const file = await getReadableFile(ctx, id);
  return { file, bytes: await readBytes(store, file) };
}
