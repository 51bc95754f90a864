import { and, eq, exists, gt, isNull, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { dataJobs, entities, equipmentTypeFiles, equipmentTypes, incidentCommentFiles, incidentComments, incidentFiles, incidents, printJobs, reports, roomFiles, rooms, storedFiles, tasks, users, equipmentItemFiles, equipmentItems, taskCheckAnswers } from "~/db/schema";
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
 * - an equipment item's documents and photos: whoever may view its room (`treeScope`), while the item is active;
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
  /**
   * One owner: a row of `table` of this entity (its `entity` column) whose `files` column (any of them)
   * holds the file, through `joins` (inner joins, each a table and its condition) and `conditions`.
   */
  const ownedBy = (
    table: PgTable,
    entity: PgColumn,
    files: PgColumn | PgColumn[],
    conditions: (SQL | undefined)[] = [],
    joins: [PgTable, SQL][] = [],
  ): SQL => {
    let query = ctx.db.select({ one: sql`1` }).from(table).$dynamic();
    for (const [joined, on] of joins) query = query.innerJoin(joined, on);
    const fileMatch = or(...[files].flat().map((column) => eq(column, storedFiles.id)));
    return exists(query.where(and(eq(entity, entityId), fileMatch, ...conditions)));
  };
  const owners: (SQL | undefined)[] = [
    ownedBy(entities, entities.id, [entities.logoFileId, entities.explanatoryStickerFileId]),
    ownedBy(users, users.entityId, users.pictureFileId),
    ownedBy(roomFiles, roomFiles.entityId, roomFiles.fileId, [isNull(rooms.archivedAt), treeScope(ctx, "room")], [[rooms, eq(rooms.id, roomFiles.roomId)]]),
    ownedBy(
      equipmentItemFiles,
      equipmentItemFiles.entityId,
      equipmentItemFiles.fileId,
      [isNull(equipmentItems.archivedAt), treeScope(ctx, "equipmentItem")],
      [[equipmentItems, eq(equipmentItems.id, equipmentItemFiles.equipmentItemId)]],
    ),
    ownedBy(
      equipmentTypeFiles,
      equipmentTypeFiles.entityId,
      equipmentTypeFiles.fileId,
      [isNull(equipmentTypes.archivedAt), equipmentTypeReach(ctx)],
      [[equipmentTypes, eq(equipmentTypes.id, equipmentTypeFiles.equipmentTypeId)]],
    ),
    ownedBy(incidentFiles, incidentFiles.entityId, incidentFiles.fileId, [isNull(incidents.archivedAt), incidentReach(ctx)], [
      [incidents, eq(incidents.id, incidentFiles.incidentId)],
    ]),
    ownedBy(
      incidentCommentFiles,
      incidentCommentFiles.entityId,
      incidentCommentFiles.fileId,
      [isNull(incidentComments.deletedAt), isNull(incidents.archivedAt), incidentReach(ctx)],
      [
        [incidentComments, eq(incidentComments.id, incidentCommentFiles.commentId)],
        [incidents, eq(incidents.id, incidentComments.incidentId)],
      ],
    ),
    ownedBy(tasks, tasks.entityId, tasks.photoFileId, [treeScope(ctx, "room")], [[rooms, eq(rooms.id, tasks.roomId)]]),
    // An inspection's photos, read like the task's own.
    ownedBy(taskCheckAnswers, taskCheckAnswers.entityId, taskCheckAnswers.photoFileId, [treeScope(ctx, "room")], [
      [tasks, eq(tasks.id, taskCheckAnswers.taskId)],
      [rooms, eq(rooms.id, tasks.roomId)],
    ]),
    ownedBy(reports, reports.entityId, reports.fileId, [can(actor, "read", "bugReport") ? undefined : eq(reports.userId, actor.id ?? -1)]),
    dataFiles ? ownedBy(dataJobs, dataJobs.entityId, dataJobs.sourceFileId) : undefined,
    can(actor, "export", "data")
      ? ownedBy(dataJobs, dataJobs.entityId, dataJobs.resultFileId, [
          eq(dataJobs.kind, DataJobKind.EXPORT),
          isEntityWide(actor) ? undefined : eq(dataJobs.requestedById, actor.id ?? -1),
          // An expired export is gone for everyone, even before the nightly pass deletes its file.
          or(isNull(dataJobs.expiresAt), gt(dataJobs.expiresAt, new Date(now()))),
        ])
      : undefined,
    can(actor, "print", "printing")
      ? ownedBy(printJobs, printJobs.entityId, printJobs.resultFileId, [
          // The sheets name rooms and equipment of the asker's reach: another manager's may not be theirs.
          isEntityWide(actor) ? undefined : eq(printJobs.requestedById, actor.id ?? -1),
        ])
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
