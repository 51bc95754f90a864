import { and, eq, isNull } from "drizzle-orm";
import { ReportType } from "~/db/enums";
import { entities, reports, users, type Report } from "~/db/schema";
import { personWhoCan } from "~/core/actor";
import { withTx } from "~/core/unit-of-work.server";
import { NotFoundError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { sendEmailJob } from "~/mail/jobs.server";
import type { StoredFile } from "~/modules/files/storage.server";
import { type FilesContext, uploadsOf } from "~/modules/files/uploads.server";
import { getStoredFile } from "~/modules/files/storage.server";
import { SubmitReportSchema, type SubmitReportInput } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/** Where reports go besides the database: the operators' address and the app's public address. */
export interface ReportSettings {
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
 * the report (and its attachment, format checked by content) and, when BUG_REPORT_EMAIL is
 * configured, the mail to it as a job, all in one unit of work: nothing is kept or sent unless all
 * of it commits. The mail is for the operators of this installation, so it is written in English.
 */
export async function submitReport(
  ctx: FilesContext,
  input: SubmitReportInput & { settings: ReportSettings },
): Promise<SubmittedReport> {
  const actor = personWhoCan(ctx.actor, "create", "bugReport");
  const { type, message, pageUrl, attachment } = parseInput(SubmitReportSchema, input);
  const { settings } = input;

  return withTx(ctx, async (tx, effects) => {
    const [reporter] = await tx.db
      .select({ name: users.name, surname: users.surname, email: users.email, entityName: entities.name })
      .from(users)
      .innerJoin(entities, eq(entities.id, users.entityId))
      .where(and(eq(users.id, actor.id), eq(users.entityId, ctx.entityId), isNull(users.archivedAt)))
      .limit(1);
    if (!reporter) throw new NotFoundError("errors.notFound.generic", "USER_NOT_FOUND");

    const uploads = uploadsOf(tx, effects);
    const fileId = attachment
      ? await uploads.add({ bytes: attachment.bytes, name: attachment.originalName }, { kind: "document", field: "attachment" })
      : null;
    const file = fileId ? await getStoredFile(tx, fileId) : null;
    const [report] = await tx.db
      .insert(reports)
      .values({ entityId: ctx.entityId, userId: actor.id, type: typeValue[type], message, fileId, pageUrl: pageUrl ?? null })
      .returning();
    await effects.audit({ action: AUDIT.report.submit, recordType: "report", recordId: report.id });

    let emailed = false;
    if (settings.bugReportEmail) {
      await effects.enqueue(sendEmailJob, reportMail(settings, { report, reporter, entityName: reporter.entityName }, file, type));
      emailed = true;
    }
    return { report, file, emailed };
  });
}

function reportMail(
  deps: ReportSettings,
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
