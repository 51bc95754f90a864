import fs from "node:fs/promises";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { ReportType } from "~/db/enums";
import { entities, reports, users, type Report } from "~/db/schema";
import { Queues, type JobQueue } from "~/jobs/queue.server";
import type { ServiceContext } from "~/core/context.server";
import { ForbiddenError, NotFoundError, ValidationError, type FieldErrors } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { storeFile, type FileStore, type StoredFile } from "~/modules/files/storage.server";
import { SubmitReportSchema, type SubmitReportInput } from "./schema";

/** What `submitReport` needs besides the context: where files go and how mail leaves. */
export interface ReportDeps {
  files: FileStore;
  /** The job queue; null when workers are off (the report is still stored). */
  queue: Pick<JobQueue, "send"> | null;
  /** BUG_REPORT_EMAIL: who receives reports by mail; unset means "stored only". */
  bugReportEmail?: string;
  /** APP_URL, to turn the page address into a link in the mail. */
  appUrl: string;
}

export interface SubmittedReport {
  report: Report;
  file: StoredFile | null;
  /** A mail to BUG_REPORT_EMAIL was queued. */
  emailed: boolean;
}

const typeValue = { bug: ReportType.BUG, suggestion: ReportType.SUGGESTION } as const;

/**
 * "Report a bug or suggestion" (SPEC.md sections 2 and 5): any signed-in user of the entity. Stores
 * the report (and its attachment, format checked by content) in one transaction, then, when
 * BUG_REPORT_EMAIL is configured, queues a mail to it. The mail is for the operators of this
 * installation, so it is written in English.
 */
export async function submitReport(ctx: ServiceContext, deps: ReportDeps, input: SubmitReportInput): Promise<SubmittedReport> {
  const actor = ctx.actor;
  if (!actor) throw new ForbiddenError();
  const parsed = SubmitReportSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.join(".") || "_form"] ??= []).push(issue.message);
    throw new ValidationError(fieldErrors);
  }
  const { type, message, pageUrl, attachment } = parsed.data;

  let stored: StoredFile | null = null;
  let outcome: { report: Report; reporter: { name: string; surname: string; email: string }; entityName: string };
  try {
    outcome = await ctx.db.transaction(async (tx) => {
      const [reporter] = await tx
        .select({ name: users.name, surname: users.surname, email: users.email, entityName: entities.name })
        .from(users)
        .innerJoin(entities, eq(entities.id, users.entityId))
        .where(and(eq(users.id, actor.id), eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
        .limit(1);
      if (!reporter) throw new NotFoundError("errors.notFound.generic", "USER_NOT_FOUND");

      if (attachment) {
        stored = await storeFile({ ...ctx, db: tx as unknown as Db }, deps.files, {
          bytes: attachment.bytes,
          originalName: attachment.originalName,
          kind: "document",
          field: "attachment",
        });
      }
      const [report] = await tx
        .insert(reports)
        .values({
          entityId: ctx.entityId,
          userId: actor.id,
          type: typeValue[type],
          message,
          fileId: stored?.id ?? null,
          pageUrl: pageUrl ?? null,
        })
        .returning();
      return { report, reporter, entityName: reporter.entityName };
    });
  } catch (error) {
    // The file row went with the rolled-back transaction; its bytes must go too.
    const orphan = stored as StoredFile | null;
    if (orphan) await fs.rm(path.join(deps.files.root, orphan.storageKey), { force: true });
    throw error;
  }

  // After commit: tell the operators. A queue failure does not undo a stored report.
  let emailed = false;
  if (deps.bugReportEmail && deps.queue) {
    try {
      await deps.queue.send(Queues.sendEmail, reportMail(deps, outcome, stored, type));
      emailed = true;
    } catch (error) {
      logger().error({ err: error, reportId: outcome.report.id }, "could not queue the report mail");
    }
  }
  return { report: outcome.report, file: stored, emailed };
}

function reportMail(
  deps: ReportDeps,
  outcome: { report: Report; reporter: { name: string; surname: string; email: string }; entityName: string },
  file: StoredFile | null,
  type: keyof typeof typeValue,
) {
  const { report, reporter, entityName } = outcome;
  const label = type === "bug" ? "Bug report" : "Suggestion";
  const lines = [
    `${label} #${report.id} from ${reporter.name} ${reporter.surname} <${reporter.email}>`,
    `Entity: ${entityName} (id ${report.entityId})`,
    `Sent: ${report.createdAt.toISOString()}`,
    report.pageUrl ? `Page: ${new URL(report.pageUrl, deps.appUrl).toString()}` : null,
    file ? `Attachment: ${file.originalName} (${file.mimeType}, ${file.sizeBytes} bytes), stored as file ${file.id}` : null,
    "",
    report.message,
  ].filter((line): line is string => line !== null);
  return {
    to: deps.bugReportEmail!,
    subject: `[Caretaker] ${label} #${report.id} (${entityName})`,
    text: lines.join("\n"),
  };
}
