import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { ReportType, Role } from "~/db/enums";
import { reports, storedFiles } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import type { Mail } from "~/mail/mailer.server";
import type { FileStore } from "~/modules/files/storage.server";
import { createEntity, createUser, pngBytes } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { submitReport, type ReportDeps } from "./service.server";

let database: Database;
let ctxA: ServiceContext;
let ctxB: ServiceContext;
const store: FileStore = { root: fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-reports-")), maxBytes: 64 * 1024 };
const sent: { name: string; data: Mail }[] = [];
const queue = {
  async send(name: string, data: Mail) {
    sent.push({ name, data });
    return `job-${sent.length}`;
  },
} as ReportDeps["queue"];
const deps = (overrides: Partial<ReportDeps> = {}): ReportDeps => ({
  files: store,
  queue,
  bugReportEmail: "bugs@caretaker.test",
  appUrl: "https://caretaker.test",
  ...overrides,
});

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  const a = await createEntity(db, { name: "Alpha Campus" });
  const b = await createEntity(db, { name: "Beta Campus" });
  const userA = await createUser(db, { entityId: a.id, name: "Ann", surname: "Alpha", role: Role.TECHNICIAN });
  const userB = await createUser(db, { entityId: b.id, role: Role.ADMINISTRATOR });
  ctxA = { db, entityId: a.id, actor: { id: userA.id, role: userA.role }, locale: "en" };
  ctxB = { db, entityId: b.id, actor: { id: userB.id, role: userB.role }, locale: "en" };
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(store.root, { recursive: true, force: true });
});

describe("submitReport", () => {
  it("stores a bug with its attachment and mails it to BUG_REPORT_EMAIL", async () => {
    sent.length = 0;
    const result = await submitReport(ctxA, deps(), {
      type: "bug",
      message: "  The kanban does not scroll on my phone.  ",
      pageUrl: "/incidents?view=kanban",
      attachment: { bytes: pngBytes(4, 4), originalName: "screenshot.png" },
    });
    expect(result.report).toMatchObject({
      entityId: ctxA.entityId,
      userId: ctxA.actor!.id,
      type: ReportType.BUG,
      message: "The kanban does not scroll on my phone.",
      pageUrl: "/incidents?view=kanban",
      fileId: result.file!.id,
    });
    expect(result.file).toMatchObject({ entityId: ctxA.entityId, mimeType: "image/png", originalName: "screenshot.png" });
    expect(fs.existsSync(path.join(store.root, result.file!.storageKey))).toBe(true);
    expect(result.emailed).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0].name).toBe("send-email");
    expect(sent[0].data.to).toBe("bugs@caretaker.test");
    expect(sent[0].data.subject).toContain("Bug report");
    expect(sent[0].data.subject).toContain("Alpha Campus");
    expect(sent[0].data.text).toContain("The kanban does not scroll on my phone.");
    expect(sent[0].data.text).toContain("https://caretaker.test/incidents?view=kanban");
    expect(sent[0].data.text).toContain("screenshot.png");
  });

  it("stores a suggestion without attachment, and sends no mail when no address is configured", async () => {
    sent.length = 0;
    const result = await submitReport(ctxA, deps({ bugReportEmail: undefined }), { type: "suggestion", message: "Dark mode, please." });
    expect(result.report).toMatchObject({ type: ReportType.SUGGESTION, fileId: null, pageUrl: null });
    expect(result.emailed).toBe(false);
    expect(sent).toHaveLength(0);
  });

  it("keeps the report when the mail cannot be queued", async () => {
    const failing = { send: () => Promise.reject(new Error("queue down")) } as ReportDeps["queue"];
    const result = await submitReport(ctxA, deps({ queue: failing }), { type: "bug", message: "Still stored" });
    expect(result.emailed).toBe(false);
    const [row] = await database.db.select().from(reports).where(eq(reports.id, result.report.id));
    expect(row.message).toBe("Still stored");
  });

  it("requires a message", async () => {
    const before = (await database.db.select().from(reports)).length;
    await expect(submitReport(ctxA, deps(), { type: "bug", message: "   " })).rejects.toMatchObject({
      code: "VALIDATION",
      fieldErrors: { message: ["shell:report.messageRequired"] },
    });
    await expect(submitReport(ctxA, deps(), { type: "other" as "bug", message: "x" })).rejects.toBeInstanceOf(ValidationError);
    expect((await database.db.select().from(reports)).length).toBe(before);
  });

  it("refuses an attachment in a wrong format and stores nothing", async () => {
    const before = (await database.db.select().from(reports)).length;
    const filesBefore = (await database.db.select().from(storedFiles)).length;
    const script = new TextEncoder().encode("<script>alert(1)</script>");
    await expect(
      submitReport(ctxA, deps(), { type: "bug", message: "See file", attachment: { bytes: script, originalName: "shot.png" } }),
    ).rejects.toMatchObject({ code: "FILE_FORMAT", fieldErrors: { attachment: ["errors.file.wrongFormat"] } });
    expect((await database.db.select().from(reports)).length).toBe(before);
    expect((await database.db.select().from(storedFiles)).length).toBe(filesBefore);
  });

  it("files the report under the actor's entity only; another entity's user is not found", async () => {
    const mine = await submitReport(ctxB, deps(), { type: "bug", message: "Beta bug" });
    expect(mine.report.entityId).toBe(ctxB.entityId);
    const alphaRows = await database.db.select().from(reports).where(eq(reports.entityId, ctxA.entityId));
    expect(alphaRows.some((r) => r.message === "Beta bug")).toBe(false);

    // A user of entity A acting in entity B (a forged context) is refused as "not found".
    const forged: ServiceContext = { ...ctxB, actor: ctxA.actor };
    await expect(submitReport(forged, deps(), { type: "bug", message: "Cross-tenant" })).rejects.toBeInstanceOf(NotFoundError);
    const betaRows = await database.db.select().from(reports).where(eq(reports.entityId, ctxB.entityId));
    expect(betaRows.some((r) => r.message === "Cross-tenant")).toBe(false);
  });

  it("needs a signed-in user", async () => {
    await expect(submitReport({ ...ctxA, actor: null }, deps(), { type: "bug", message: "anonymous" })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });
});
