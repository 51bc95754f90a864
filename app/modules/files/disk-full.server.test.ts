import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { entities, storedFiles } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { InsufficientStorageError } from "~/lib/errors";
import { toApiError } from "~/http/api.server";
import { createTestDatabase } from "#tests/test-db";
import { storeFile, type FileStore } from "./storage.server";

/**
 * A full data folder: the write answers 507 with a translated message, the partial file is removed and
 * no row is written. The folder is a real 64 KiB tmpfs where the tests may mount one (root, as in CI);
 * elsewhere the disk's refusal is injected into the write (ENOSPC after part of the bytes).
 */
let database: Database;
let ctx: ServiceContext;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-full-"));
let mounted = false;

beforeAll(async () => {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", root], { stdio: "ignore" });
    mounted = true;
  } catch {
    mounted = false;
  }
  database = await createTestDatabase();
  const [entity] = await database.db.insert(entities).values({ name: "Full disk" }).returning();
  ctx = { db: database.db, entityId: entity.id, actor: null, locale: "en", timeZone: "Europe/Brussels" };
});

afterAll(async () => {
  await database?.close();
  if (mounted) execFileSync("umount", [root]);
  fs.rmSync(root, { recursive: true, force: true });
});

/** A 200 KiB PDF: more than the whole small disk. */
const bigPdf = () => Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(200 * 1024)]);

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
}

describe("a full data folder", () => {
  it("answers 507, keeps no partial file and writes no row", async () => {
    const store: FileStore = { root, maxBytes: 10 * 1024 * 1024 };
    const restore = mounted
      ? () => undefined
      : (() => {
          const original = fsp.writeFile;
          const spy = vi.spyOn(fsp, "writeFile").mockImplementation(async (file, data) => {
            await original(file as string, (data as Buffer).subarray(0, 1024));
            throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
          });
          return () => spy.mockRestore();
        })();
    try {
      const attempt = storeFile(ctx, store, { bytes: bigPdf(), originalName: "manual.pdf", kind: "document" });
      await expect(attempt).rejects.toBeInstanceOf(InsufficientStorageError);
      await expect(attempt).rejects.toMatchObject({ status: 507, code: "INSUFFICIENT_STORAGE" });
    } finally {
      restore();
    }
    expect(filesUnder(root)).toEqual([]);
    expect(await database.db.select().from(storedFiles).where(eq(storedFiles.entityId, ctx.entityId))).toEqual([]);

    // A small file still fits afterwards: nothing was left taking the space.
    const small = await storeFile(ctx, store, { bytes: Buffer.from("%PDF-1.4\nsmall"), originalName: "small.pdf", kind: "document" });
    expect(small.sizeBytes).toBe(14);
  });

  it("is answered by the API as 507 with the message in the caller's language", async () => {
    const en = await toApiError(new InsufficientStorageError(), "en");
    expect(en.status).toBe(507);
    expect(await en.json()).toMatchObject({
      code: "INSUFFICIENT_STORAGE",
      message: "The server's storage is full: the file was not saved. Please tell your administrator.",
    });
    const nl = await toApiError(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }), "nl-BE");
    expect(nl.status).toBe(507);
    expect(((await nl.json()) as { message: string }).message).toBe("De opslag van de server is vol: het bestand is niet bewaard. Meld het aan uw beheerder.");
  });
});
