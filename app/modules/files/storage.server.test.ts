import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { entities } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { pngBytes } from "#tests/factories/files";
import { createTestDatabase } from "#tests/test-db";
import { deleteStoredFile, readStoredFile, storeFile, type FileStore } from "./storage.server";

let database: Database;
let ctxA: ServiceContext;
let ctxB: ServiceContext;
const store: FileStore = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-files-")), maxBytes: 64 * 1024 };

beforeAll(async () => {
  database = await createTestDatabase();
  const [a, b] = await database.db.insert(entities).values([{ name: "Entity A" }, { name: "Entity B" }]).returning();
  ctxA = { db: database.db, entityId: a.id, actor: null, locale: "en", timeZone: "Europe/Brussels" };
  ctxB = { db: database.db, entityId: b.id, actor: null, locale: "en", timeZone: "Europe/Brussels" };
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(store.root, { recursive: true, force: true });
});

describe("file storage", () => {
  it("stores an image under its entity, typed by content, and reads it back", async () => {
    const bytes = pngBytes(8, 8);
    const file = await storeFile(ctxA, store, { bytes, originalName: "../../etc/photo.jpeg", kind: "image" });
    expect(file).toMatchObject({ entityId: ctxA.entityId, mimeType: "image/png", sizeBytes: bytes.byteLength, originalName: "photo.png" });
    expect(file.storageKey.startsWith(`${ctxA.entityId}/`)).toBe(true);
    const read = await readStoredFile(ctxA, store, file.id);
    expect(new Uint8Array(read.bytes)).toEqual(bytes);
  });

  it("never serves a file to another entity", async () => {
    const file = await storeFile(ctxA, store, { bytes: pngBytes(2, 2), originalName: "a.png", kind: "image" });
    await expect(readStoredFile(ctxB, store, file.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteStoredFile(ctxB, store, file.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await readStoredFile(ctxA, store, file.id)).file.id).toBe(file.id);
  });

  it("refuses a wrong format and a file over the limit, naming the field", async () => {
    const script = new TextEncoder().encode("<script>alert(1)</script>");
    await expect(storeFile(ctxA, store, { bytes: script, originalName: "x.png", kind: "image", field: "logo" })).rejects.toMatchObject({
      code: "FILE_FORMAT",
      fieldErrors: { logo: ["errors.file.wrongFormat"] },
    });
    const pdf = new TextEncoder().encode("%PDF-1.4 tiny");
    await expect(storeFile(ctxA, store, { bytes: pdf, originalName: "a.pdf", kind: "logo" })).rejects.toBeInstanceOf(ValidationError);
    const big = pngBytes(400, 400);
    expect(big.byteLength).toBeLessThan(store.maxBytes); // compressed; build an oversized buffer instead
    const oversized = new Uint8Array(store.maxBytes + 1);
    oversized.set(big);
    await expect(storeFile(ctxA, store, { bytes: oversized, originalName: "big.png", kind: "image" })).rejects.toMatchObject({
      code: "FILE_TOO_LARGE",
    });
  });

  it("deletes the bytes and hides the row", async () => {
    const file = await storeFile(ctxA, store, { bytes: pngBytes(3, 3), originalName: "gone.png", kind: "document" });
    await deleteStoredFile(ctxA, store, file.id);
    expect(fs.existsSync(path.join(store.root, file.storageKey))).toBe(false);
    await expect(readStoredFile(ctxA, store, file.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
