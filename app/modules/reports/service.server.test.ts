import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { ReportType, Role } from "~/db/enums";
import { reports, storedFiles } from "~/db/schema";
import type { FilesContext } from "~/modules/files/uploads.server";
import { ForbiddenError, NotFoundError, ValidationError } from "~/lib/errors";
import { sendEmailJob } from "~/mail/jobs.server";
import { createEntity, createUser, pngBytes } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";
import { submitReport, type ReportSettings } from "./service.server";

let database: Database;
let services: TestServices;
let ctxA: FilesContext;
let ctxB: FilesContext;
const settings = (overrides: Partial<ReportSettings> = {}): ReportSettings => ({
  bugReportEmail: "bugs@caretaker.test",
  appUrl: "https://caretaker.test",
  ...overrides,
});
/** The report mails queued (committed jobs), oldest first. */
const sent = async () => services.queued(sendEmailJob);

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  const a = await createEntity(db, { name: "Alpha Campus" });
  const b = await createEntity(db, { name: "Beta Campus" });
  const userA = await createUser(db, { entityId: a.id, name: "Ann", surname: "Alpha", role: Role.TECHNICIAN });
  const userB = await createUser(db, { entityId: b.id, role: Role.ADMINISTRATOR });
  services = await createTestServices(database);
  ctxA = services.ctx(a.id, { id: userA.id, role: userA.role });
  ctxB = services.ctx(b.id, { id: userB.id, role: userB.role });
});
afterAll(async () => {
  await services?.close();
  await database?.close();
});

describe("submitReport", () => {
  it("stores a bug with its attachment and mails it to BUG_REPORT_EMAIL", async () => {
    await services.clearJobs();
    const result = await submitReport(ctxA, { settings: settings(), 
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
    expect(fs.existsSync(path.join(services.files.root, result.file!.storageKey))).toBe(true);
    expect(result.emailed).toBe(true);
    const jobs = await sent();
    expect(jobs).toHaveLength(1);
    expect(jobs[0].data.to).toBe("bugs@caretaker.test");
    expect(jobs[0].data.subject).toContain("Bug report");
    expect(jobs[0].data.subject).toContain("Alpha Campus");
    expect(jobs[0].data.text).toContain("The kanban does not scroll on my phone.");
    expect(jobs[0].data.text).toContain("https://caretaker.test/incidents?view=kanban");
    expect(jobs[0].data.text).toContain("screenshot.png");
  });

  it("stores a suggestion without attachment, and sends no mail when no address is configured", async () => {
    await services.clearJobs();
    const result = await submitReport(ctxA, { settings: settings({ bugReportEmail: undefined }),  type: "suggestion", message: "Dark mode, please." });
    expect(result.report).toMatchObject({ type: ReportType.SUGGESTION, fileId: null, pageUrl: null });
    expect(result.emailed).toBe(false);
    expect(await sent()).toHaveLength(0);
  });

  it("keeps neither the report nor its file when the mail cannot be queued (one unit of work)", async () => {
    const before = (await database.db.select().from(reports)).length;
    const filesBefore = (await database.db.select().from(storedFiles)).length;
    const dir = path.join(services.files.root, String(ctxA.entityId));
    const onDisk = () => (fs.existsSync(dir) ? fs.readdirSync(dir).length : 0);
    const bytesBefore = onDisk();
    const failing = { ...services.queue, send: () => Promise.reject(new Error("queue down")) };
    await expect(
      submitReport({ ...ctxA, queue: failing }, {
        settings: settings(),
        type: "bug",
        message: "Not stored",
        attachment: { bytes: pngBytes(4, 4), originalName: "shot.png" },
      }),
    ).rejects.toThrow("queue down");
    expect((await database.db.select().from(reports)).length).toBe(before);
    expect((await database.db.select().from(storedFiles)).length).toBe(filesBefore);
    expect(onDisk()).toBe(bytesBefore);
  });

  it("requires a message", async () => {
    const before = (await database.db.select().from(reports)).length;
    await expect(submitReport(ctxA, { settings: settings(),  type: "bug", message: "   " })).rejects.toMatchObject({
      code: "VALIDATION",
      fieldErrors: { message: ["shell:report.messageRequired"] },
    });
    await expect(submitReport(ctxA, { settings: settings(),  type: "other" as "bug", message: "x" })).rejects.toBeInstanceOf(ValidationError);
    expect((await database.db.select().from(reports)).length).toBe(before);
  });

  it("refuses an attachment in a wrong format and stores nothing", async () => {
    const before = (await database.db.select().from(reports)).length;
    const filesBefore = (await database.db.select().from(storedFiles)).length;
    const script = new TextEncoder().encode("<script>alert(1)</script>");
    await expect(
      submitReport(ctxA, { settings: settings(),  type: "bug", message: "See file", attachment: { bytes: script, originalName: "shot.png" } }),
    ).rejects.toMatchObject({ code: "FILE_FORMAT", fieldErrors: { attachment: ["errors.file.wrongFormat"] } });
    expect((await database.db.select().from(reports)).length).toBe(before);
    expect((await database.db.select().from(storedFiles)).length).toBe(filesBefore);
  });

  it("files the report under the actor's entity only; another entity's user is not found", async () => {
    const mine = await submitReport(ctxB, { settings: settings(),  type: "bug", message: "Beta bug" });
    expect(mine.report.entityId).toBe(ctxB.entityId);
    const alphaRows = await database.db.select().from(reports).where(eq(reports.entityId, ctxA.entityId));
    expect(alphaRows.some((r) => r.message === "Beta bug")).toBe(false);

    // A user of entity A acting in entity B (a forged context) is refused as "not found".
    const forged: FilesContext = { ...ctxB, actor: ctxA.actor };
    await expect(submitReport(forged, { settings: settings(),  type: "bug", message: "Cross-tenant" })).rejects.toBeInstanceOf(NotFoundError);
    const betaRows = await database.db.select().from(reports).where(eq(reports.entityId, ctxB.entityId));
    expect(betaRows.some((r) => r.message === "Cross-tenant")).toBe(false);
  });

  it("needs a signed-in user", async () => {
    await expect(submitReport({ ...ctxA, actor: null }, { settings: settings(), type: "bug", message: "anonymous" })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });
});
