import fs from "node:fs/promises";
import path from "node:path";
import type { FileStore, ServiceContext } from "~/core/context.server";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import { InsufficientStorageError, ValidationError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { ACCEPTED, imageSize, sniff, type FileKind } from "./sniff";
import { deleteStoredFile, storeFile, type StoredFile } from "./storage.server";

/**
 * Helpers for service verbs that take uploads: check an image before anything is written, store it
 * inside the verb's transaction, remove the bytes again if that transaction rolls back, and retire a
 * replaced file after commit.
 */

/** The service context plus the file store, for verbs that take uploads. */
export type FilesContext = ServiceContext & { files: FileStore };

/** The address a stored file is served at (to users of its entity only). */
export const fileUrl = (id: string | null) => (id ? `/files/${id}` : null);

// ---------------------------------------------------------------------------

export interface ImageRule {
  kind: Extract<FileKind, "image" | "logo">;
  /** The form/body field the upload came from, for the error. */
  field: string;
  /** Width must equal height (logos). */
  square?: boolean;
}

/** Size, format (by content) and shape checks, before anything is written; throws a field error. */
export function checkImage(upload: { bytes: Uint8Array }, maxBytes: number, rule: ImageRule): void {
  const fail = (key: string, code: string) => {
    throw new ValidationError({ [rule.field]: [key] }, key, code);
  };
  const { bytes } = upload;
  if (bytes.byteLength === 0) fail("settings:files.invalidData", "FILE_EMPTY");
  if (bytes.byteLength > maxBytes) fail("settings:files.tooLarge", "FILE_TOO_LARGE");
  const sniffed = sniff(bytes);
  if (!sniffed || !ACCEPTED[rule.kind].includes(sniffed.mime)) {
    fail(rule.kind === "logo" ? "settings:files.logoFormat" : "settings:files.imageFormat", "FILE_FORMAT");
  }
  if (rule.square) {
    const size = imageSize(bytes);
    if (!size || size.width !== size.height) fail("settings:files.notSquare", "FILE_NOT_SQUARE");
  }
}

/** Removes the bytes of files stored in a transaction that was rolled back. */
export async function discardFiles(store: FileStore, files: StoredFile[]): Promise<void> {
  await Promise.all(files.map((f) => fs.rm(path.join(store.root, f.storageKey), { force: true }).catch(() => undefined)));
}

/** After commit: marks a replaced file deleted and removes its bytes (a failure only leaves an orphan). */
export async function retireFile(ctx: FilesContext, fileId: string): Promise<void> {
  try {
    await deleteStoredFile(ctx, ctx.files, fileId);
  } catch (err) {
    logger().warn({ err, fileId }, "could not remove a replaced file");
  }
}

export interface Upload {
  bytes: Uint8Array;
  name: string;
}

export interface Uploads {
  /**
   * Stores `upload` in place of the file `currentId` (null clears it) and returns the new file id.
   * The replaced file is retired after commit; the new bytes are removed if the transaction rolls back.
   */
  replace(currentId: string | null, upload: Upload | null, options: { kind: FileKind; field: string }): Promise<string | null>;
  /** Stores a new file and returns its id (removed again if the transaction rolls back). */
  add(upload: Upload, options: { kind: FileKind; field: string }): Promise<string>;
  /** Retires a file after commit (marks it deleted, removes its bytes). */
  retire(fileId: string): void;
}

/** Stores one upload; a full disk is a 507, any other failure of the storage (permissions) "upload failed". */
async function storeUpload(ctx: FilesContext, upload: Upload, kind: FileKind, field: string): Promise<StoredFile> {
  try {
    return await storeFile(ctx, ctx.files, { bytes: upload.bytes, originalName: upload.name, kind, field });
  } catch (error) {
    if (error instanceof ValidationError || error instanceof InsufficientStorageError) throw error;
    logger().error({ err: error }, "could not store an upload");
    throw new ValidationError({ [field]: ["errors.file.uploadFailed"] }, "errors.file.uploadFailed", "FILE_UPLOAD_FAILED");
  }
}

/**
 * The uploads of a unit of work: files stored in its transaction have their bytes removed if it rolls
 * back; replaced or removed files are retired after it commits.
 */
export function uploadsOf(tx: FilesContext, effects: Effects): Uploads {
  const store = async (upload: Upload, kind: FileKind, field: string) => {
    const file = await storeUpload(tx, upload, kind, field);
    effects.onRollback(() => discardFiles(tx.files, [file]));
    return file.id;
  };
  // After commit the transaction is gone: retire through the context outside it.
  const outside = (tx.uow?.outside ?? tx) as FilesContext;
  const retire = (fileId: string) => effects.afterCommit(() => retireFile({ ...outside, files: tx.files }, fileId));
  return {
    async replace(currentId, upload, { kind, field }) {
      const id = upload ? await store(upload, kind, field) : null;
      if (currentId && currentId !== id) retire(currentId);
      return id;
    },
    add: (upload, { kind, field }) => store(upload, kind, field),
    retire,
  };
}

/** Runs `work` in one unit of work (app/core/unit-of-work) with the uploads helper bound to it. */
export function transactionWithUploads<T>(ctx: FilesContext, work: (tx: FilesContext, uploads: Uploads) => Promise<T>): Promise<T> {
  return withTx(ctx, (tx, effects) => work(tx, uploadsOf(tx, effects)));
}
