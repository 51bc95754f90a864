import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { storedFiles } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { InsufficientStorageError, isDiskFullError, NotFoundError, ValidationError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { ACCEPTED, sniff, type FileKind } from "./sniff";

/**
 * Stored files: uploads (images, documents, logos) live in the data folder under
 * `files/<entityId>/<uuid>`; a `stored_files` row records the owner, the sniffed type and the size.
 * A file is only ever read back for the entity that owns it, and served to a user only when they may
 * reach the record that owns it (access.server.ts).
 */
export type { FileStore } from "~/core/context.server";
import type { FileStore } from "~/core/context.server";

export interface StoreFileInput {
  bytes: Uint8Array;
  originalName: string;
  kind: FileKind;
  /** Form field the upload came from, for the error. */
  field?: string;
}

export type StoredFile = typeof storedFiles.$inferSelect;

/**
 * Writes a file whole or not at all: on any failure the partial file is removed. A full disk (or
 * quota) is an InsufficientStorageError, logged once per failure with the folder it concerns.
 */
export async function writeWhole(target: string, bytes: Uint8Array): Promise<void> {
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, bytes);
  } catch (error) {
    await fs.rm(target, { force: true }).catch(() => undefined);
    if (!isDiskFullError(error)) throw error;
    logger().error({ folder: path.dirname(target), bytes: bytes.byteLength }, "the data folder is full: a file could not be written");
    throw new InsufficientStorageError();
  }
}

export async function storeFile(ctx: ServiceContext, store: FileStore, input: StoreFileInput): Promise<StoredFile> {
  const field = input.field ?? "file";
  if (input.bytes.byteLength === 0) {
    throw new ValidationError({ [field]: ["errors.file.empty"] }, "errors.file.empty", "FILE_EMPTY");
  }
  if (input.bytes.byteLength > store.maxBytes) {
    throw new ValidationError({ [field]: ["errors.file.tooLarge"] }, "errors.file.tooLarge", "FILE_TOO_LARGE");
  }
  const sniffed = sniff(input.bytes, input.originalName);
  if (!sniffed || !ACCEPTED[input.kind].includes(sniffed.mime)) {
    throw new ValidationError({ [field]: ["errors.file.wrongFormat"] }, "errors.file.wrongFormat", "FILE_FORMAT");
  }

  const id = randomUUID();
  const storageKey = `${ctx.entityId}/${id}`;
  const target = path.join(store.root, storageKey);
  await writeWhole(target, input.bytes);
  try {
    const [row] = await ctx.db
      .insert(storedFiles)
      .values({
        id,
        entityId: ctx.entityId,
        storageKey,
        originalName: cleanName(input.originalName, sniffed.extension),
        mimeType: sniffed.mime,
        sizeBytes: input.bytes.byteLength,
        createdById: ctx.actor?.id ?? null,
      })
      .returning();
    return row;
  } catch (error) {
    await fs.rm(target, { force: true });
    throw error;
  }
}

export const fileNotFound = () => new NotFoundError("errors.notFound.file", "FILE_NOT_FOUND");

/**
 * The file's row and bytes, for the entity that owns it; NotFound otherwise. For verbs and jobs only:
 * a user's download goes through `serveStoredFile` (access.server.ts), which also checks that the user
 * may reach the record owning the file.
 */
export async function readStoredFile(
  ctx: ServiceContext,
  store: FileStore,
  id: string,
): Promise<{ file: StoredFile; bytes: Buffer }> {
  const file = await getStoredFile(ctx, id);
  return { file, bytes: await readBytes(store, file) };
}

/** The bytes of a stored file; NotFound when they are missing. */
export async function readBytes(store: FileStore, file: StoredFile): Promise<Buffer> {
  return fs.readFile(path.join(store.root, file.storageKey)).catch(() => {
    throw fileNotFound();
  });
}

/** A stored file of the entity (not removed), whoever owns it; NotFound otherwise. For verbs and jobs. */
export async function getStoredFile(ctx: ServiceContext, id: string): Promise<StoredFile> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw fileNotFound();
  const [file] = await ctx.db
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.id, id), eq(storedFiles.entityId, ctx.entityId), isNull(storedFiles.deletedAt)))
    .limit(1);
  if (!file) throw fileNotFound();
  return file;
}

/** Marks the file deleted and removes its bytes. */
export async function deleteStoredFile(ctx: ServiceContext, store: FileStore, id: string): Promise<void> {
  const file = await getStoredFile(ctx, id);
  await ctx.db
    .update(storedFiles)
    .set({ deletedAt: new Date() })
    .where(and(eq(storedFiles.id, file.id), eq(storedFiles.entityId, ctx.entityId)));
  await fs.rm(path.join(store.root, file.storageKey), { force: true });
}

/** Keeps a readable base name and forces the extension to the sniffed one. */
function cleanName(name: string, extension: string): string {
  const base = path
    .basename(name)
    .replace(/\.[^.]*$/, "")
    .replace(/[^\p{L}\p{N} _.-]+/gu, "_")
    .slice(0, 120);
  return `${base || "file"}.${extension}`;
}
