import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { type Actor, assertCan, can } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import { QrPrintStatus, UserStatus } from "~/db/enums";
import { printJobs, PrintJobStatus, printSettings, reportIdentifiers, rooms, users } from "~/db/schema";
import { fallbackLng, isLocale, type Locale } from "~/i18n";
import { getT } from "~/i18n.server";
import { brandColors } from "~/lib/contrast";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { parseInput } from "~/lib/validation";
import { requesterActor } from "~/modules/api-tokens/requester.server";
import { treeScope } from "~/modules/facilities/policy.server";
import { sniff } from "~/modules/files/sniff";
import { readStoredFile, storeFile } from "~/modules/files/storage.server";
import { issueReportIdentifiers } from "~/modules/rooms/report-identifiers.server";
import { printSheetsReady } from "./changes.server";
import { printStickersJob } from "./jobs.server";
import { sheetCount } from "./layout";
import { type QrSticker, renderImageSheets, renderQrSheets } from "./pdf.server";
import { type PrintTarget, type PrintTargetRow, printTargetOf, readStickerSettings, resolveSelection } from "./queries.server";
import { BACKGROUND_THRESHOLD, CalibrationSchema, type CalibrationValues, ExplanatoryStickersSchema, type ExplanatoryStickersValues, type LabelLine, MAX_STICKERS, QrCodesSchema, type QrCodesValues, type StyleValues } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * Printing's verbs (issue 48, decision 053), shared by the /printing forms, the REST API and the print
 * job. Managers and administrators (`printing: print`), within their reach.
 *
 * `printQrCodes` resolves the selection, creates the report identifiers its rooms and items lack, and
 * either marks them printed and answers the PDF (up to BACKGROUND_THRESHOLD stickers: 50 sheets), or
 * records a print job that the queue runs as the system, which prints what the person who asked still
 * reaches (through the API token they used: the token's reach), stores the PDF as a file of the entity,
 * marks the identifiers printed and notifies them. The PDF is drawn after the
 * transaction commits, so the database is never held while it renders.
 */

export const NOTHING_TO_PRINT = "printing:errors.nothingToPrint";
export const PRINT_ACTOR = "print-stickers";

const nothingToPrint = () => new ValidationError({}, NOTHING_TO_PRINT, "NOTHING_TO_PRINT");

export type QrPrintResult =
  | { kind: "pdf"; pdf: Buffer; fileName: string; stickers: number; sheets: number }
  | { kind: "job"; printJobId: number; stickers: number };

export interface PrintOptions {
  /** The public address the codes point at (`${origin}/report/${code}`); default the app's. */
  origin?: string;
  /** Uncompressed PDF (tests read it back). */
  compress?: boolean;
}

/** The stored params of a background print. */
interface PrintJobParams {
  identifierIds: number[];
  style: StyleValues;
  start: { row: number; column: number };
  locale: Locale;
  origin: string;
  /** Asked through an API token: the job prints within the token's reach, not its maker's (issue 60 item 9). */
  tokenId?: number;
}

function originOf(ctx: ServiceContext, options: PrintOptions): string {
  return (options.origin ?? ctx.appUrl ?? "").replace(/\/+$/, "");
}

/** The report address of a code. */
export const reportUrl = (origin: string, code: string) => `${origin}/report/${code}`;

/** A sticker's label lines, in the order of LABEL_LINES, in `locale`. */
export function stickerLines(target: PrintTarget, lines: readonly LabelLine[], locale: Locale): string[] {
  const t = getT(locale, "printing");
  const name = target.itemName ? (target.internalReference ? `${target.itemName} (${target.internalReference})` : target.itemName) : target.roomName;
  const text: Record<LabelLine, string> = {
    room: name,
    building: target.itemName ? `${target.buildingName} · ${target.roomName}` : target.buildingName,
    floor: t("sticker.floor", { floor: target.floor }),
    code: target.code ?? "",
  };
  return lines.map((line) => text[line]).filter(Boolean);
}

/** Reads the logo for the centre: PNG or JPEG bytes (what pdfkit draws), or null. */
async function logoBytes(ctx: ServiceContext, fileId: string | null): Promise<Buffer | null> {
  if (!fileId || !ctx.files) return null;
  try {
    const { bytes } = await readStoredFile(ctx, ctx.files, fileId);
    const mime = sniff(bytes)?.mime;
    return mime === "image/png" || mime === "image/jpeg" ? bytes : null;
  } catch (err) {
    logger().warn({ err, entityId: ctx.entityId }, "printing: the logo could not be read");
    return null;
  }
}

/** Draws the QR sheets of `targets` (each with its code) in the chosen style. */
async function drawQrSheets(ctx: ServiceContext, targets: PrintTarget[], params: Omit<PrintJobParams, "identifierIds">, compress?: boolean): Promise<Buffer> {
  const settings = await readStickerSettings(ctx);
  const { style } = params;
  const colors =
    style.colors === "custom" && style.background && style.textColor
      ? { background: style.background, text: style.textColor }
      : (({ background, foreground }) => ({ background, text: foreground }))(brandColors(settings.templateColor, settings.templateTextColor));
  const logo = style.logo ? await logoBytes(ctx, settings.logoFileId) : null;
  const stickers: QrSticker[] = targets.map((target) => ({ url: reportUrl(params.origin, target.code!), lines: stickerLines(target, style.lines, params.locale) }));
  return renderQrSheets(stickers, {
    start: params.start,
    offset: settings.offset,
    colors,
    logo,
    compress,
    title: getT(params.locale, "printing")("pdf.qrTitle"),
  });
}

/** Marks identifiers printed now. */
async function markPrinted(ctx: ServiceContext, identifierIds: number[]): Promise<void> {
  for (let i = 0; i < identifierIds.length; i += 5000) {
    await ctx.db
      .update(reportIdentifiers)
      .set({ qrPrintStatus: QrPrintStatus.PRINTED, lastPrintedAt: new Date() })
      .where(and(eq(reportIdentifiers.entityId, ctx.entityId), inArray(reportIdentifiers.id, identifierIds.slice(i, i + 5000)), isNull(reportIdentifiers.archivedAt)));
  }
}

/**
 * Whether `printQrCodes` would print the posted form, without printing: the same refusals (bad fields,
 * nothing to print, too many stickers, a place out of reach), thrown; nothing is written. The screen
 * checks a print with it first, so that a refusal re-renders the form with the choices kept.
 */
export async function checkQrPrint(ctx: ServiceContext, input: Input<unknown>): Promise<{ stickers: number }> {
  assertCan(ctx.actor, "print", "printing");
  const values: QrCodesValues = parseInput(QrCodesSchema, await resolveInput(input));
  const targets = await resolveSelection(ctx, values);
  if (targets.length === 0) throw nothingToPrint();
  if (targets.length > MAX_STICKERS) throw new ValidationError({}, "printing:errors.tooMany", "TOO_MANY_STICKERS");
  return { stickers: targets.length };
}

/** POST /printing/qr-codes.pdf, POST /api/printing/qr-codes: the QR sticker sheets of a selection. */
export async function printQrCodes(ctx: ServiceContext, input: Input<unknown>, options: PrintOptions = {}): Promise<QrPrintResult> {
  assertCan(ctx.actor, "print", "printing");
  const values: QrCodesValues = parseInput(QrCodesSchema, await resolveInput(input));
  const locale: Locale = values.language ?? (isLocale(ctx.locale) ? ctx.locale : fallbackLng);
  const origin = originOf(ctx, options);
  const style: StyleValues = { colors: values.colors, background: values.background, textColor: values.textColor, logo: values.logo, lines: values.lines, language: values.language };
  const start = { row: values.startRow, column: values.startColumn };
  const requester = ctx.actor.id;
  const tokenId = ctx.actor.kind === "token" ? ctx.actor.tokenId : undefined;

  const outcome = await withTx(ctx, async (tx, effects) => {
    let targets = await resolveSelection(tx, values);
    if (targets.length === 0) throw nothingToPrint();
    if (targets.length > MAX_STICKERS) throw new ValidationError({}, "printing:errors.tooMany", "TOO_MANY_STICKERS");
    const missing = targets.filter((t) => t.identifierId === null);
    if (missing.length) {
      await issueReportIdentifiers(
        tx,
        missing.map((t) => (t.equipmentItemId ? { equipmentItemId: t.equipmentItemId } : { roomId: t.roomId })),
      );
      const issued = new Map((await resolveSelection(tx, { ...values, notPrintedOnly: false })).map((t) => [`${t.roomId}:${t.equipmentItemId}`, t]));
      targets = targets.map((t) => issued.get(`${t.roomId}:${t.equipmentItemId}`) ?? t);
    }
    const identifierIds = targets.map((t) => t.identifierId!);
    if (targets.length > BACKGROUND_THRESHOLD) {
      const params: PrintJobParams = { identifierIds, style, start, locale, origin, ...(tokenId === undefined ? {} : { tokenId }) };
      const [job] = await tx.db
        .insert(printJobs)
        .values({ entityId: tx.entityId, requestedById: requester, stickers: targets.length, params: params as unknown as Record<string, unknown> })
        .returning({ id: printJobs.id });
      await effects.enqueue(printStickersJob, { entityId: tx.entityId, printJobId: job.id });
      await effects.audit({ action: AUDIT.printing.qrCodes, recordType: "print-job", recordId: job.id, details: { stickers: targets.length, background: true } });
      return { kind: "job" as const, printJobId: job.id, stickers: targets.length };
    }
    await markPrinted(tx, identifierIds);
    await effects.audit({ action: AUDIT.printing.qrCodes, recordType: "report-identifiers", recordId: identifierIds[0], details: { stickers: targets.length } });
    return { kind: "targets" as const, targets };
  });
  if (outcome.kind === "job") return outcome;
  const pdf = await drawQrSheets(ctx, outcome.targets, { style, start, locale, origin }, options.compress);
  return { kind: "pdf", pdf, fileName: "qr-codes.pdf", stickers: outcome.targets.length, sheets: sheetCount(outcome.targets.length, start) };
}

/**
 * The targets of report identifiers, in the order of `ids` (a background print's), skipping archived
 * ones and those whose room the context's actor does not reach (now: a room may have moved since).
 */
async function targetsOfIdentifiers(ctx: ServiceContext, ids: number[]): Promise<PrintTarget[]> {
  if (ids.length === 0) return [];
  const scope = treeScope(ctx, "room");
  const reached = scope ? sql`and r.id in (select ${rooms.id} from ${rooms} where ${rooms.entityId} = ${ctx.entityId} and ${scope})` : sql``;
  const result = await ctx.db.execute(sql`
    select ri.id as identifier_id, ri.code, ri.qr_print_status as status, ri.equipment_item_id as item_id,
      r.id as room_id, r.name as room_name, r.floor, b.name as building_name, f.name as facility_name,
      et.name as item_name, ei.internal_reference
    from report_identifiers ri
    left join equipment_items ei on ei.id = ri.equipment_item_id and ei.entity_id = ${ctx.entityId}
    left join equipment_types et on et.id = ei.equipment_type_id
    join rooms r on r.id = coalesce(ri.room_id, ei.room_id) and r.entity_id = ${ctx.entityId}
    join buildings b on b.id = r.building_id
    join facilities f on f.id = b.facility_id
    where ri.entity_id = ${ctx.entityId} and ri.archived_at is null
      and ri.id = any(${`{${ids.join(",")}}`}::int[]) ${reached}`);
  const byId = new Map((result as unknown as { rows: PrintTargetRow[] }).rows.map((r) => [Number(r.identifier_id), printTargetOf(r)]));
  return ids.flatMap((id) => {
    const target = byId.get(id);
    return target ? [target] : [];
  });
}

/**
 * Who a background print is for, as they asked (`requesterActor`: through an API token, the token as
 * it is now); null when they may no longer print (archived, disabled, the token revoked or expired).
 */
async function printRequester(ctx: ServiceContext, requestedById: number | null, tokenId: number | undefined): Promise<Actor | null> {
  if (requestedById === null) return null;
  const [person] = await ctx.db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.id, requestedById), eq(users.entityId, ctx.entityId), isNull(users.archivedAt), ne(users.status, UserStatus.DISABLED)));
  const actor = person ? await requesterActor(ctx.db, ctx.entityId, person, tokenId) : null;
  return actor && can(actor, "print", "printing") ? actor : null;
}

/**
 * The print job's work (as the system, printing what the requester reaches): draws the sheets of a
 * recorded print, stores the PDF as a file of the entity, marks its identifiers printed and emits
 * `printing.sheets-ready`, in one transaction. A job already done (a retry after a crash past commit)
 * does nothing; one whose requester may no longer print, or reaches none of its stickers, fails.
 */
export async function completePrintJob(ctx: ServiceContext, printJobId: number): Promise<{ fileId: string } | null> {
  assertCan(ctx.actor, "print", "printing");
  const [job] = await ctx.db
    .select()
    .from(printJobs)
    .where(and(eq(printJobs.id, printJobId), eq(printJobs.entityId, ctx.entityId)));
  if (!job) throw new NotFoundError("printing:errors.notFound", "PRINT_JOB_NOT_FOUND");
  if (job.status !== PrintJobStatus.QUEUED) return null;
  if (!ctx.files) throw new Error("print job: no file store");
  const params = job.params as unknown as PrintJobParams;
  const requester = await printRequester(ctx, job.requestedById, params.tokenId);
  const targets = requester ? await targetsOfIdentifiers({ ...ctx, actor: requester }, params.identifierIds) : [];
  const pdf = targets.length ? await drawQrSheets(ctx, targets, params) : null;
  const store = ctx.files;
  return withTx(ctx, async (tx, effects) => {
    if (!pdf) {
      await tx.db.update(printJobs).set({ status: PrintJobStatus.FAILED, finishedAt: new Date() }).where(and(eq(printJobs.id, job.id), eq(printJobs.entityId, tx.entityId)));
      return null;
    }
    const file = await storeFile(tx, store, { bytes: pdf, originalName: "qr-codes.pdf", kind: "document" });
    await markPrinted(tx, targets.map((t) => t.identifierId!));
    await tx.db
      .update(printJobs)
      .set({ status: PrintJobStatus.DONE, resultFileId: file.id, finishedAt: new Date() })
      .where(and(eq(printJobs.id, job.id), eq(printJobs.entityId, tx.entityId)));
    await effects.emit(printSheetsReady, { printJobId: job.id, requestedById: job.requestedById, fileId: file.id, stickers: targets.length });
    return { fileId: file.id };
  });
}

/** The background print could not be made (its last attempt failed): marked failed if still queued. */
export async function failPrintJob(ctx: ServiceContext, printJobId: number): Promise<void> {
  assertCan(ctx.actor, "print", "printing");
  await ctx.db
    .update(printJobs)
    .set({ status: PrintJobStatus.FAILED, finishedAt: new Date() })
    .where(and(eq(printJobs.id, printJobId), eq(printJobs.entityId, ctx.entityId), eq(printJobs.status, PrintJobStatus.QUEUED)));
}

/** POST /printing/explanatory-stickers.pdf, POST /api/printing/explanatory-stickers: N copies of the entity's sticker image. */
export async function printExplanatoryStickers(
  ctx: ServiceContext,
  input: Input<unknown>,
  options: Pick<PrintOptions, "compress"> = {},
): Promise<{ pdf: Buffer; fileName: string; copies: number; sheets: number }> {
  assertCan(ctx.actor, "print", "printing");
  const values: ExplanatoryStickersValues = parseInput(ExplanatoryStickersSchema, await resolveInput(input));
  const settings = await readStickerSettings(ctx);
  if (!settings.explanatoryStickerFileId || !ctx.files) throw new ValidationError({}, "printing:errors.noSticker", "NO_EXPLANATORY_STICKER");
  const { bytes } = await readStoredFile(ctx, ctx.files, settings.explanatoryStickerFileId);
  const mime = sniff(bytes)?.mime;
  if (mime !== "image/png" && mime !== "image/jpeg") throw new ValidationError({}, "printing:errors.stickerFormat", "STICKER_FORMAT");
  const start = { row: values.startRow, column: values.startColumn };
  const locale: Locale = isLocale(ctx.locale) ? ctx.locale : fallbackLng;
  const pdf = await renderImageSheets(bytes, values.copies, { start, offset: settings.offset, compress: options.compress, title: getT(locale, "printing")("pdf.stickersTitle") });
  return { pdf, fileName: "explanatory-stickers.pdf", copies: values.copies, sheets: sheetCount(values.copies, start) };
}

/** The printer's calibration offset of the entity (the /printing page's calibration form). */
export async function setPrintCalibration(ctx: ServiceContext, input: Input<unknown>): Promise<CalibrationValues> {
  assertCan(ctx.actor, "print", "printing");
  const values = parseInput(CalibrationSchema, await resolveInput(input));
  await withTx(ctx, async (tx, effects) => {
    await tx.db
      .insert(printSettings)
      .values({ entityId: tx.entityId, offsetXMm: values.offsetX, offsetYMm: values.offsetY })
      .onConflictDoUpdate({ target: printSettings.entityId, set: { offsetXMm: values.offsetX, offsetYMm: values.offsetY, updatedAt: new Date() } });
    await effects.audit({ action: AUDIT.printing.calibration, recordType: "entity", recordId: tx.entityId, details: values });
  });
  return values;
}
