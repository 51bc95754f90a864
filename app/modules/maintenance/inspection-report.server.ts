import { and, asc, eq, gte, lte } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { TaskStatus } from "~/db/enums";
import { buildings, entities, maintenanceTypes, plannedMaintenances, rooms, tasks } from "~/db/schema";
import { fallbackLng, isLocale, type Locale } from "~/i18n";
import { getT } from "~/i18n.server";
import { dateFormats } from "~/lib/dates";
import { A4, drawFooters, openA4 } from "~/lib/pdf-document.server";
import { pdfText } from "~/lib/pdf-text";
import { answersOfTasks, type TaskAnswerView } from "./inspections.server";
import { selectTasks, type TaskRow, taskWhere } from "./task-queries.server";
import { NotFoundError } from "~/lib/errors";

/**
 * The printed inspection report (issue 63): an A4 PDF made with pdfkit like the work order, in the
 * viewer's language, of a plan's tasks (one day's, or one task of it, or every task over a period), each
 * with its place, due day, status, the checklist's answers (failed ones marked, with the incident they
 * opened), the note and the sign-off. Reads only the tasks the viewer reaches: none is "not found".
 */

const MARGIN = 42;
const CONTENT_WIDTH = A4.width - 2 * MARGIN;
const BOTTOM = A4.height - MARGIN - 14;
const INK = "#111827";
const MUTED = "#4b5563";
const FAIL = "#b91c1c";
const RULE = "#d1d5db";
/** The most tasks one report prints (a period of a daily plan over many rooms stops there). */
export const REPORT_MAX_TASKS = 500;

export interface InspectionReportScope {
  plannedMaintenanceId: number;
  /** One day (`from` = `to`), or a period, both included. */
  from: string;
  to: string;
  /** Only this task of the plan. */
  taskId?: number | null;
}

const reportNotFound = () => new NotFoundError("tasks:notFound.plannedMaintenance", "PLANNED_MAINTENANCE_NOT_FOUND");

export const inspectionReportFileName = (scope: InspectionReportScope) =>
  scope.taskId ? `inspection-${scope.taskId}.pdf` : scope.from === scope.to ? `inspection-${scope.plannedMaintenanceId}-${scope.from}.pdf` : `inspections-${scope.plannedMaintenanceId}-${scope.from}-${scope.to}.pdf`;

/** The report of `scope` as a PDF; NotFound when the viewer reaches none of its tasks. */
export async function renderInspectionReport(ctx: ServiceContext, scope: InspectionReportScope, options: { now?: Date } = {}): Promise<Buffer> {
  const [plan] = await ctx.db
    .select({ name: plannedMaintenances.name, typeName: maintenanceTypes.name })
    .from(plannedMaintenances)
    .innerJoin(maintenanceTypes, and(eq(maintenanceTypes.id, plannedMaintenances.maintenanceTypeId), eq(maintenanceTypes.entityId, ctx.entityId)))
    .where(and(eq(plannedMaintenances.id, scope.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)));
  if (!plan) throw reportNotFound();
  const rows = await selectTasks(ctx)
    .where(
      taskWhere(ctx, {}, [
        eq(tasks.plannedMaintenanceId, scope.plannedMaintenanceId),
        gte(tasks.dueDate, scope.from),
        lte(tasks.dueDate, scope.to),
        scope.taskId ? eq(tasks.id, scope.taskId) : undefined,
      ]),
    )
    .orderBy(asc(tasks.dueDate), asc(buildings.name), asc(rooms.name), asc(tasks.id))
    .limit(REPORT_MAX_TASKS);
  if (rows.length === 0) throw reportNotFound();
  const answers = await answersOfTasks(ctx, rows.map((r) => r.id));
  const [entity] = await ctx.db.select({ name: entities.name }).from(entities).where(eq(entities.id, ctx.entityId));
  return draw({ locale: isLocale(ctx.locale) ? ctx.locale : fallbackLng, timeZone: ctx.timeZone, plan, scope, rows, answers, entityName: entity?.name ?? "", now: options.now ?? new Date() });
}

function draw(input: {
  locale: Locale;
  timeZone: string;
  plan: { name: string; typeName: string };
  scope: InspectionReportScope;
  rows: TaskRow[];
  answers: Map<number, TaskAnswerView[]>;
  entityName: string;
  now: Date;
}): Promise<Buffer> {
  const { plan, scope, rows, answers } = input;
  const t = getT(input.locale, "tasks");
  const dates = dateFormats(input.locale, input.timeZone);
  const day = (d: string) => dates.day(d);
  const title = t("report.title");
  const { doc, done } = openA4({ margin: MARGIN, title: `${title} - ${plan.name}`, author: input.entityName, lang: input.locale });
  const ensure = (height: number) => {
    if (doc.y + height > BOTTOM) doc.addPage();
  };
  const line = (text: string, options: { color?: string; bold?: boolean; size?: number; indent?: number } = {}) => {
    ensure(14);
    doc
      .fillColor(options.color ?? INK)
      .font(options.bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(options.size ?? 10)
      .text(pdfText(text), MARGIN + (options.indent ?? 0), doc.y, { width: CONTENT_WIDTH - (options.indent ?? 0) });
  };

  doc.fillColor(INK).font("Helvetica-Bold").fontSize(18).text(pdfText(title), MARGIN, MARGIN, { width: CONTENT_WIDTH });
  line(`${plan.name} · ${plan.typeName}`, { size: 12, bold: true });
  line(scope.from === scope.to ? day(scope.from) : t("report.period", { from: day(scope.from), to: day(scope.to) }), { color: MUTED });
  doc.y += 6;

  for (const task of rows) {
    ensure(80);
    const ruleY = doc.y + 4;
    doc.lineWidth(0.6).strokeColor(RULE).moveTo(MARGIN, ruleY).lineTo(MARGIN + CONTENT_WIDTH, ruleY).stroke();
    doc.y = ruleY + 8;
    const place = [task.buildingName, task.roomName, task.equipmentName].filter(Boolean).join(" · ");
    line(place, { bold: true, size: 11.5 });
    line(`${t("report.due")}: ${day(task.dueDate)} · ${t("report.status")}: ${t(`status.${task.status === TaskStatus.DONE ? 1 : 0}`)}`, { color: MUTED });
    const list = answers.get(task.id) ?? [];
    if (list.length === 0) line(t("report.noAnswers"), { color: MUTED });
    for (const a of list) {
      const value = a.kind === 0 ? t(a.answer === "pass" ? "inspection.pass" : "inspection.fail") : a.answer;
      const range =
        a.kind === 1 && (a.minValue !== null || a.maxValue !== null)
          ? ` (${a.minValue !== null && a.maxValue !== null ? t("inspection.range", { min: a.minValue, max: a.maxValue }) : a.minValue !== null ? t("inspection.rangeMin", { min: a.minValue }) : t("inspection.rangeMax", { max: a.maxValue })})`
          : "";
      const failed = a.passed === false;
      const opened = a.incident ? ` · ${t("inspection.openedIncident", { shortId: a.incident.shortId })}` : "";
      line(`${a.label}: ${value}${range}${failed ? ` · ${t("inspection.failed")}` : ""}${opened}`, { indent: 10, color: failed ? FAIL : INK });
    }
    if (task.note) line(`${t("report.note")}: ${task.note}`, { indent: 10 });
    if (task.signedOffAt) line(t("inspection.signedOff", { name: task.signedOffName || t("someone"), when: dates.dateTime(task.signedOffAt) }), { bold: true });
    else if (task.doneAt) line(t("doneBy", { name: task.doneByName || t("someone"), when: dates.dateTime(task.doneAt) }));
    doc.y += 4;
  }

  // Footer on every page: the entity, the plan, the day printed and the page number.
  drawFooters(doc, { margin: MARGIN, left: `${input.entityName} · ${plan.name} · ${dates.date(input.now)}`, page: (page, pages) => t("report.page", { page, pages }), rule: RULE, color: MUTED });
  doc.end();
  return done;
}
