import { and, eq, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import type { ServiceContext } from "~/core/context.server";
import { entities } from "~/db/schema";
import { fallbackLng, isLocale, type Locale } from "~/i18n";
import { getT } from "~/i18n.server";
import { brandColors } from "~/lib/contrast";
import { dateFormats } from "~/lib/dates";
import { logger } from "~/lib/logger.server";
import { formatMoney } from "~/lib/money";
import { A4, drawFooters, openA4 } from "~/lib/pdf-document.server";
import { pdfText } from "~/lib/pdf-text";
import { sniff } from "~/modules/files/sniff";
import { readStoredFile } from "~/modules/files/storage.server";
import { WORK_ORDER_COMMENTS } from "./constants";
import { answersByReport, answerText } from "~/lib/checklist-answers";
import { dueState, dueWords } from "~/modules/service-levels/due";
import { workTotals, type WorkTotals } from "~/modules/time-costs/queries.server";
import { getIncident, incidentNotFound, incidentTypeChecklist, listIncidentComments, type IncidentComment, type IncidentDetail } from "./queries.server";

/**
 * The printed work order of an incident: an A4 PDF made with pdfkit, in the
 * viewer's language (`ctx.locale`), for a technician to take along. It carries the entity's logo and
 * colours (a header band), the incident's short id, title, description, priority, status, location
 * with floor and the QR code of its room (or item), assignee, dates (in the entity's time zone), type, tags,
 * reporters, the type's checklist with boxes to tick, the latest comments, the time and costs recorded
 * (total time, labour, materials, total, in the entity's currency), a space for notes and the
 * signature and date lines of the technician and the requester. Long texts wrap and flow onto further
 * pages; every page carries the short id and its number.
 *
 * Reads only what the viewer reaches: an incident outside reach is "Incident not found".
 */

export interface WorkOrderOptions {
  /** The public address the QR code points at (`${origin}/report/${code}`); default APP_URL. */
  origin?: string;
  /** "Printed on" (default: now). */
  now?: Date;
}

export interface WorkOrder {
  pdf: Buffer;
  shortId: number;
  fileName: string;
}

export const workOrderFileName = (shortId: number) => `work-order-${shortId}.pdf`;

const MARGIN = 42;
const PAGE = A4;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const BOTTOM = PAGE.height - MARGIN - 6; // room for the footer
const BAND_HEIGHT = 64;
const QR_SIZE = 104;
const INK = "#111827";
const MUTED = "#4b5563";
const RULE = "#d1d5db";

/** The work order as a PDF. */
export async function renderWorkOrder(ctx: ServiceContext, incidentId: number, options: WorkOrderOptions = {}): Promise<Buffer> {
  return (await workOrder(ctx, incidentId, options)).pdf;
}

/** The work order as a PDF, with its short id and file name (`work-order-<shortId>.pdf`). */
export async function workOrder(ctx: ServiceContext, incidentId: number, options: WorkOrderOptions = {}): Promise<WorkOrder> {
  const incident = await getIncident(ctx, incidentId);
  // One after the other: a pool of two connections serves the PDF and the next request alike.
  const comments = await listIncidentComments(ctx, incident.id, { limit: WORK_ORDER_COMMENTS, newestFirst: true });
  const checklist = await incidentTypeChecklist(ctx, incident.incidentType?.id ?? null);
  const entity = await entityLook(ctx);
  const work = await workTotals(ctx, { incidentId: incident.id });
  const origin = (options.origin ?? ctx.appUrl ?? "").replace(/\/+$/, "");
  const reportUrl = incident.reportCode && origin ? `${origin}/report/${incident.reportCode}` : null;
  const pdf = await draw({
    locale: isLocale(ctx.locale) ? ctx.locale : fallbackLng,
    timeZone: ctx.timeZone,
    incident,
    comments,
    checklist,
    entity,
    work,
    reportUrl,
    now: options.now ?? new Date(),
  });
  return { pdf, shortId: incident.shortId, fileName: workOrderFileName(incident.shortId) };
}

interface EntityLook {
  name: string;
  /** PNG or JPEG bytes (what pdfkit draws); null without a logo or for another format. */
  logo: Buffer | null;
  colors: { background: string; foreground: string; muted: string };
}

/** The entity's name, logo and template colours (made readable, as the shell's header does). */
async function entityLook(ctx: ServiceContext): Promise<EntityLook> {
  const [row] = await ctx.db
    .select({ name: entities.name, logoFileId: entities.logoFileId, color: entities.templateColor, textColor: entities.templateTextColor })
    .from(entities)
    .where(and(eq(entities.id, ctx.entityId), isNull(entities.archivedAt)));
  if (!row) throw incidentNotFound();
  let logo: Buffer | null = null;
  if (row.logoFileId && ctx.files) {
    try {
      const { bytes } = await readStoredFile(ctx, ctx.files, row.logoFileId);
      const type = sniff(bytes)?.mime;
      if (type === "image/png" || type === "image/jpeg") logo = bytes;
    } catch (err) {
      logger().warn({ err, entityId: ctx.entityId }, "work order: the logo could not be read");
    }
  }
  return { name: row.name, logo, colors: brandColors(row.color, row.textColor) };
}

// ---------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------

/** Text the standard PDF fonts can draw (app/lib/pdf-text.ts; the sticker sheets use it too). */
export { pdfText };

// ---------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------

interface DrawInput {
  locale: Locale;
  timeZone: string;
  incident: IncidentDetail;
  comments: { items: IncidentComment[]; total: number };
  checklist: { question: string; contentType: number }[];
  entity: EntityLook;
  work: WorkTotals;
  reportUrl: string | null;
  now: Date;
}

/**
 * The "Time and costs" rows: the total time, the labour cost (marked partial when entries have no rate),
 * the materials and their total, in the entity's currency and the reader's format.
 */
function costFacts(work: WorkTotals, locale: Locale): [string, string][] {
  const t = getT(locale, "workOrder");
  const tc = getT(locale, "timeCosts");
  const { minutes, labour, materials, total, unpricedEntries } = work.totals;
  const money = (amount: string) => formatMoney(amount, work.currency, locale);
  const hours = Math.floor(minutes / 60);
  const time = hours ? tc("duration", { hours, minutes: minutes % 60 }) : tc("durationMinutes", { minutes });
  // Labour and total are left out for a technician while colleagues' time counts in them (decision 065).
  return [
    [t("totalTime"), time],
    ...(labour === null ? [] : [[t("labour"), unpricedEntries ? t("labourPartial", { amount: money(labour), count: unpricedEntries }) : money(labour)] as [string, string]]),
    [t("materials"), money(materials)],
    ...(total === null ? [] : [[t("total"), money(total)] as [string, string]]),
  ];
}

/** The incident's service-level targets, where it has them (decision 064), as of the printing. */
function serviceLevelFacts(incident: IncidentDetail, locale: Locale, now: Date, date: (at: string) => string): [string, string][] {
  const t = getT(locale, "serviceLevels");
  const facts: [string, string][] = [];
  const response = dueState({ targetMinutes: incident.responseTargetMinutes, dueAt: incident.responseDueAt, metAt: incident.respondedAt, met: incident.responseMet }, now);
  const resolution = dueState({ targetMinutes: incident.resolutionTargetMinutes, dueAt: incident.resolutionDueAt, metAt: incident.resolvedAt, met: incident.resolutionMet }, now);
  if (response) facts.push([t("due.response"), dueWords(response, t, date)]);
  if (resolution) facts.push([t("due.resolution"), dueWords(resolution, t, date)]);
  return facts;
}

function draw(input: DrawInput): Promise<Buffer> {
  const { locale, incident, comments, checklist, entity, reportUrl, now } = input;
  const t = getT(locale, "workOrder");
  const ti = getT(locale, "incidents");
  const dates = dateFormats(locale, input.timeZone);
  const date = dates.dateTime;

  const { doc, done } = openA4({
    margin: MARGIN,
    title: `${t("title")} #${incident.shortId} - ${incident.title}`,
    author: entity.name,
    subject: incident.title,
    lang: locale,
  });

  const text = (value: string) => pdfText(value);
  const ensure = (height: number) => {
    if (doc.y + height > BOTTOM) doc.addPage();
  };
  // Header band: the entity's colours, logo and name; the title and the short id.
  const { colors } = entity;
  doc.rect(0, 0, PAGE.width, BAND_HEIGHT).fill(colors.background);
  let nameX = MARGIN;
  if (entity.logo) {
    try {
      doc.image(entity.logo, MARGIN, 10, { fit: [44, 44], align: "center", valign: "center" });
      nameX = MARGIN + 54;
    } catch (err) {
      logger().warn({ err }, "work order: the logo could not be drawn");
    }
  }
  doc
    .fillColor(colors.foreground)
    .font("Helvetica-Bold")
    .fontSize(13)
    .text(text(entity.name), nameX, 18, { width: 260, height: 32, ellipsis: true, lineBreak: true });
  doc.font("Helvetica-Bold").fontSize(20).text(text(t("title")), PAGE.width - MARGIN - 220, 12, { width: 220, align: "right" });
  doc.font("Helvetica").fontSize(12).fillColor(colors.muted).text(`#${incident.shortId}`, PAGE.width - MARGIN - 220, 37, { width: 220, align: "right" });

  // Title, with the QR code of the room (or item) on the right.
  const top = BAND_HEIGHT + 16;
  const leftWidth = reportUrl ? CONTENT_WIDTH - QR_SIZE - 18 : CONTENT_WIDTH;
  if (reportUrl) drawQr(doc, reportUrl, PAGE.width - MARGIN - QR_SIZE, top, t("qrCaption"), incident.reportCode!);
  doc.fillColor(INK).font("Helvetica-Bold").fontSize(16).text(text(incident.title), MARGIN, top, { width: leftWidth });
  doc.moveDown(0.4);

  // The facts, two columns of label and value.
  const loc = incident.location;
  const place = [loc.facilityName, loc.buildingName, loc.roomName].filter(Boolean).join(" / ") || loc.text || "–";
  const equipment = loc.equipmentName ? (loc.internalReference ? `${loc.equipmentName} (${loc.internalReference})` : loc.equipmentName) : null;
  const facts: [string, string][] = [
    [ti("fields.status"), ti(`status.${incident.status}`)],
    [ti("fields.priority"), incident.priority === null ? ti("priority.none") : ti(`priority.${incident.priority}`)],
    [ti("fields.incidentType"), incident.incidentType?.name ?? "–"],
    [ti("fields.assignee"), incident.assignee?.name || ti("unassigned")],
    [ti("fields.location"), place],
    [ti("fields.floor"), loc.floor ?? "–"],
    ...(equipment ? [[t("equipment"), equipment] as [string, string]] : []),
    [ti("fields.occurrences"), String(incident.occurrences)],
    [ti("fields.createdAt"), date(incident.createdAt)],
    [ti("fields.lastOccurrence"), date(incident.lastOccurrenceAt)],
    [t("printedOn"), date(now)],
    [ti("fields.tags"), incident.tags.length ? incident.tags.join(", ") : "–"],
    [ti("fields.reporters"), incident.reporters.length ? incident.reporters.join(", ") : "–"],
    ...serviceLevelFacts(incident, locale, now, date),
  ];
  const labelWidth = 118;
  for (const [label, value] of facts) {
    const valueWidth = leftWidth - labelWidth;
    doc.font("Helvetica").fontSize(10);
    const height = Math.max(doc.heightOfString(text(value), { width: valueWidth }), 12);
    ensure(height + 2);
    const y = doc.y;
    doc.fillColor(MUTED).font("Helvetica").fontSize(9).text(text(label), MARGIN, y + 0.5, { width: labelWidth - 8 });
    doc.fillColor(INK).font("Helvetica").fontSize(10).text(text(value), MARGIN + labelWidth, y, { width: valueWidth });
    doc.y = Math.max(doc.y, y + height) + 2;
  }
  doc.y = Math.max(doc.y, reportUrl ? top + QR_SIZE + 34 : doc.y);

  // Description.
  section(doc, t("description"));
  doc
    .fillColor(incident.description ? INK : MUTED)
    .font("Helvetica")
    .fontSize(10)
    .text(text(incident.description || t("noDescription")), MARGIN, doc.y, { width: CONTENT_WIDTH, lineGap: 1.5 });

  // Checklist: the type's questions, each with a box to tick on site.
  const reports = answersByReport(incident.checklist);
  if (checklist.length > 0 || reports.length === 0) {
    section(doc, ti("fields.checklist"));
    if (checklist.length === 0) {
      doc.fillColor(MUTED).font("Helvetica").fontSize(10).text(text(t("noChecklist")), MARGIN, doc.y, { width: CONTENT_WIDTH });
    }
  }
  for (const item of checklist) {
    doc.font("Helvetica").fontSize(10);
    ensure(doc.heightOfString(text(item.question), { width: CONTENT_WIDTH - 22 }) + 6);
    const y = doc.y;
    doc.lineWidth(0.9).strokeColor(INK).rect(MARGIN, y + 0.5, 10, 10).stroke();
    doc.fillColor(INK).text(text(item.question), MARGIN + 20, y, { width: CONTENT_WIDTH - 20 });
    doc.y += 5;
  }

  // What the reporters answered, report by report (kept when the type has since been archived).
  if (reports.length > 0) {
    section(doc, t("reportersAnswers"));
    const words = { yes: ti("incidentView:checklist.yes"), no: ti("incidentView:checklist.no") };
    for (const [index, report] of reports.entries()) {
      ensure(30);
      const heading = reports.length > 1 ? `${t("report", { number: index + 1 })} · ${date(report.reportedAt)}` : date(report.reportedAt);
      doc.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text(text(heading), MARGIN, doc.y, { width: CONTENT_WIDTH });
      for (const answer of report.answers) {
        const said = answerText(answer, words, locale) ?? answer.file?.name ?? ti("incidentView:checklist.noAnswer");
        doc.font("Helvetica").fontSize(10);
        ensure(doc.heightOfString(text(`${answer.question}: ${said}`), { width: CONTENT_WIDTH - 10 }) + 4);
        doc.fillColor(INK).font("Helvetica").text(text(answer.question), MARGIN + 10, doc.y + 2, { width: CONTENT_WIDTH - 10, continued: true });
        doc.font("Helvetica-Bold").text(text(`: ${said}`));
      }
      doc.y += 5;
    }
  }

  // The latest comments, newest first.
  section(doc, comments.total > comments.items.length ? t("latestComments", { shown: comments.items.length, total: comments.total }) : ti("fields.comments"));
  if (comments.items.length === 0) {
    doc.fillColor(MUTED).font("Helvetica").fontSize(10).text(text(t("noComments")), MARGIN, doc.y, { width: CONTENT_WIDTH });
  }
  for (const comment of comments.items) {
    ensure(30);
    const edited = comment.editedAt ? ` · ${t("edited", { date: date(comment.editedAt) })}` : "";
    doc
      .fillColor(MUTED)
      .font("Helvetica-Bold")
      .fontSize(9)
      .text(text(`${comment.author.name || ti("system")} · ${date(comment.createdAt)}${edited}`), MARGIN, doc.y, { width: CONTENT_WIDTH });
    doc.fillColor(INK).font("Helvetica").fontSize(10).text(text(comment.body), MARGIN, doc.y + 1, { width: CONTENT_WIDTH, lineGap: 1 });
    if (comment.files.length) {
      doc.fillColor(MUTED).fontSize(8.5).text(text(`${t("attachments")}: ${comment.files.map((f) => f.name).join(", ")}`), MARGIN, doc.y + 1, { width: CONTENT_WIDTH });
    }
    doc.y += 7;
  }

  // Time and costs recorded so far.
  ensure(24 + 4 * 14);
  section(doc, t("timeAndCosts"));
  const costs = costFacts(input.work, locale);
  for (const [index, [label, value]] of costs.entries()) {
    const y = doc.y;
    const last = index === costs.length - 1;
    doc.fillColor(MUTED).font("Helvetica").fontSize(9).text(text(label), MARGIN, y + 0.5, { width: labelWidth - 8 });
    doc.fillColor(INK).font(last ? "Helvetica-Bold" : "Helvetica").fontSize(10).text(text(value), MARGIN + labelWidth, y, { width: CONTENT_WIDTH - labelWidth });
    doc.y = Math.max(doc.y, y + 12) + 2;
  }

  // Work done: lines to write on.
  ensure(24 + 3 * 20);
  section(doc, t("workDone"));
  for (let i = 0; i < 3; i++) {
    const y = doc.y + 16;
    doc.lineWidth(0.5).strokeColor(RULE).moveTo(MARGIN, y).lineTo(MARGIN + CONTENT_WIDTH, y).stroke();
    doc.y = y + 4;
  }

  // Signatures: technician and requester, each a name, signature and date line.
  ensure(30 + 12 + 3 * 21 + 4);
  section(doc, t("signatures"));
  const columnWidth = (CONTENT_WIDTH - 30) / 2;
  const startY = doc.y + 4;
  for (const [column, heading] of [t("technician"), t("requester")].entries()) {
    const x = MARGIN + column * (columnWidth + 30);
    doc.fillColor(INK).font("Helvetica-Bold").fontSize(10).text(text(heading), x, startY, { width: columnWidth });
    let y = startY + 12;
    for (const label of [t("name"), t("signature"), t("date")]) {
      y += 21;
      doc.lineWidth(0.6).strokeColor(MUTED).moveTo(x + 62, y).lineTo(x + columnWidth, y).stroke();
      doc.fillColor(MUTED).font("Helvetica").fontSize(9).text(text(label), x, y - 10, { width: 60 });
    }
    if (column === 0 && incident.assignee?.name) {
      doc.fillColor(INK).font("Helvetica").fontSize(10).text(text(incident.assignee.name), x + 66, startY + 12 + 21 - 13, { width: columnWidth - 66, lineBreak: false });
    }
  }
  doc.y = startY + 12 + 3 * 21 + 8;

  // Footer on every page: the entity, the short id, "printed on" day and the page number.
  drawFooters(doc, { margin: MARGIN, left: `${entity.name} · ${t("title")} #${incident.shortId} · ${dates.date(now)}`, page: (page, pages) => t("page", { page, pages }), rule: RULE, color: MUTED });
  doc.end();
  return done;
}

/** A section heading with a rule under it, kept with at least a line of its content. */
function section(doc: PDFKit.PDFDocument, title: string) {
  doc.y += 8;
  if (doc.y + 40 > BOTTOM) doc.addPage();
  const y = doc.y;
  doc.fillColor(INK).font("Helvetica-Bold").fontSize(11.5).text(pdfText(title), MARGIN, y, { width: CONTENT_WIDTH });
  const ruleY = doc.y + 2;
  doc.lineWidth(0.6).strokeColor(RULE).moveTo(MARGIN, ruleY).lineTo(MARGIN + CONTENT_WIDTH, ruleY).stroke();
  doc.y = ruleY + 6;
  doc.x = MARGIN;
}

/** The report address's QR code drawn as vector squares (sharp at any print size), with a caption. */
function drawQr(doc: PDFKit.PDFDocument, url: string, x: number, y: number, caption: string, code: string) {
  const qr = QRCode.create(url, { errorCorrectionLevel: "M" });
  const count = qr.modules.size;
  const quiet = 2;
  const cell = QR_SIZE / (count + 2 * quiet);
  doc.rect(x, y, QR_SIZE, QR_SIZE).fill("#ffffff");
  doc.fillColor("#000000");
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.modules.get(row, col)) doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell + 0.02, cell + 0.02);
    }
  }
  doc.fill("#000000");
  doc.fillColor(MUTED).font("Helvetica").fontSize(7.5).text(pdfText(caption), x - 10, y + QR_SIZE + 3, { width: QR_SIZE + 20, align: "center" });
  doc.font("Courier").fontSize(7.5).text(pdfText(code), x - 10, doc.y + 1, { width: QR_SIZE + 20, align: "center" });
}
