import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Actor, ServiceContext } from "~/core/context.server";
import { keptAnswers } from "~/core/kept-answers.server";
import { withStatement, withTx } from "~/core/unit-of-work.server";
import { type Priority, UserStatus } from "~/db/enums";
import { incidentChecklistAnswers, incidentFiles, incidentReporters, incidentTypeDefaultAssignees, rooms, users } from "~/db/schema";
import { isLocale, type Locale } from "~/i18n";
import { ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { renderMail } from "~/mail/templates.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { treeScope } from "~/modules/facilities/policy.server";
import { prepareImages } from "~/modules/files/images.server";
import { checkImage, type FilesContext, type Upload, uploadsOf } from "~/modules/files/uploads.server";
import { getReportableIncidentType } from "~/modules/incident-types/queries.server";
import { assigneeCandidates } from "~/modules/incidents/queries.server";
import { createReportedIncident, foldIntoOpenIncident } from "~/modules/incidents/writes.server";
import { reportPlaceNotFound, type ResolvedIdentifier, resolveReportIdentifierKept } from "./place.server";
import { hashStatusToken } from "./status-token.server";
import { OccupierReportSchema, type OccupierReportInput, REPORT_MAX_PHOTOS } from "./schema";

/**
 * Reporting an incident from a sticker (decision 026): one verb for the occupier's public
 * page and for staff reporting from the room view.
 *
 * - The identifier names a room or an equipment item of one entity; the incident type must apply there.
 * - One incident, not a hundred: a report of the same type at the same room (or item) while an incident
 *   is Pending or In Progress adds an occurrence, the reporter's email, photos and answers to it, with
 *   event 10; reports of one place and type are serialised by a transaction-scoped advisory lock, so 20
 *   at once fold into one incident with the exact count. Otherwise a new incident is created with the
 *   type's default priority (or the reporter's, when the type allows) and first active default assignee,
 *   with event 0, and the "incident created" notification (a `notify` job written in the transaction) goes to the default assignees and the users
 *   who receive notifications of new incidents (their priorities and buildings), in the transaction.
 * - Photos are checked by content and size, then scaled down (at most 2048 px, upright, no EXIF or
 *   GPS metadata; files/images.server.ts) before the transaction starts.
 * - A reporter who leaves an email gets a confirmation mail with a link to the report's status page
 *   (an unguessable token; only its hash is stored).
 */
export type ReportFiles = { photos?: Upload[] };
export type ReportWrite = OccupierReportInput & ReportFiles;

export interface ReportOutcome {
  incidentId: number;
  shortId: number;
  /** "created": a new incident; "folded": an occurrence of an open one. */
  outcome: "created" | "folded";
  /** The status page token mailed to the reporter (tests read it; the page never shows it). */
  statusToken: string | null;
}


export async function reportIncident(
  services: Omit<FilesContext, "entityId" | "actor" | "locale" | "timeZone">,
  code: string,
  rawInput: ReportWrite,
  options: { actor?: Actor | null; locale: string; resolved?: ResolvedIdentifier | null },
): Promise<ReportOutcome> {
  // The caller may have resolved the identifier already (the report page checks it before its limits).
  const resolved = options.resolved && options.resolved.code === code ? options.resolved : await resolveReportIdentifierKept(services.db, code);
  if (!resolved) throw reportPlaceNotFound();
  const locale: Locale = isLocale(options.locale) ? options.locale : "en";
  const ctx: FilesContext = { ...services, entityId: resolved.entityId, actor: options.actor ?? null, locale, timeZone: resolved.timeZone } as FilesContext;
  const place = resolved.equipmentItemId ? { equipmentItemId: resolved.equipmentItemId } : { roomId: resolved.roomId };

  // Staff report only where they reach (the room view); occupiers anywhere a sticker is.
  if (ctx.actor) {
    const [inReach] = await ctx.db
      .select({ id: rooms.id })
      .from(rooms)
      .where(and(eq(rooms.id, resolved.roomId), eq(rooms.entityId, ctx.entityId), treeScope(ctx, "room")));
    if (!inReach) throw reportPlaceNotFound();
  }

  const input = parseInput(OccupierReportSchema, rawInput);
  const photos = (rawInput.photos ?? []).filter((p) => p.bytes.byteLength > 0 || p.name);
  if (photos.length > REPORT_MAX_PHOTOS) throw new ValidationError({ photos: ["report:validation.tooManyPhotos"] }, "report:validation.tooManyPhotos", "TOO_MANY_PHOTOS");
  for (const photo of photos) checkImage(photo, ctx.files.maxBytes, { kind: "image", field: "photos" });

  // Kept until the entity commits a write (decision 019), like the identifier: the same for a whole crowd.
  const type = await reportableTypes.get(
    ctx.db,
    JSON.stringify([ctx.entityId, place, input.incidentTypeId, locale]),
    () => getReportableIncidentType(ctx, place, input.incidentTypeId),
    () => ctx.entityId,
  );
  if (!type) throw new ValidationError({ incidentTypeId: ["report:validation.typeNotHere"] }, "report:validation.typeNotHere", "INCIDENT_TYPE_NOT_REPORTABLE");
  const answers = checkAnswers(type.checklist, input.answers);
  const priority = (type.reporterMayChangePriority && input.priority !== null ? input.priority : type.defaultPriority) as Priority;
  // Scaled down, upright and without metadata, before the transaction (no lock waits for the decoding).
  const scaled = await prepareImages(photos, "photos", { maxBytes: ctx.files.maxBytes });

  // A report that brings only its note folds into an open incident in one statement, without a
  // transaction (withStatement: the common case of a crowd reporting the same thing). Otherwise, or when
  // nothing is open, the transaction below folds or creates.
  if (scaled.length === 0 && answers.length === 0 && !input.email) {
    // It changes only the incident's count, last occurrence and events, which no kept answer reads: the
    // kept identifier, type and page stay valid for the rest of the crowd.
    const folded = await withStatement(
      ctx,
      (c, effects) => foldIntoOpenIncident(c, effects, { typeId: type.id, ...placeOf(resolved), description: input.description, at: new Date() }),
      { changesKeptAnswers: false },
    );
    if (folded) return { incidentId: folded.id, shortId: folded.shortId, outcome: "folded", statusToken: null };
  }

  return withTx(ctx, async (tx, effects) => {
    const uploads = uploadsOf(tx, effects);
    const now = new Date();
    // Fold into the open incident if there is one. When there is none, reports of one place and type take
    // a transaction-scoped advisory lock and try again, so that only the first creates the incident and
    // the others (their statement starts after its commit) fold into it.
    const fold = () => foldIntoOpenIncident(tx, effects, { typeId: type.id, ...placeOf(resolved), description: input.description, at: now });
    let folded = await fold();
    if (!folded) {
      await tx.db.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`report:${tx.entityId}:${resolved.roomId}:${resolved.equipmentItemId ?? 0}:${type.id}`}))`,
      );
      folded = await fold();
    }

    let incidentId: number;
    let shortId: number;
    let outcome: ReportOutcome["outcome"];
    if (folded) {
      incidentId = folded.id;
      shortId = folded.shortId;
      outcome = "folded";
    } else {
      const [room] = await tx.db.select({ name: rooms.name, floor: rooms.floor }).from(rooms).where(and(eq(rooms.id, resolved.roomId), eq(rooms.entityId, tx.entityId)));
      const row = await createReportedIncident(tx, effects, {
        title: type.name,
        description: input.description,
        ...placeOf(resolved),
        location: room?.name ?? null,
        floor: room?.floor ?? null,
        priority,
        incidentTypeId: type.id,
        assigneeId: await firstDefaultAssignee(tx, type.id, resolved.roomId),
        at: now,
      });
      incidentId = row.id;
      shortId = row.shortId;
      outcome = "created";
    }

    // What this report brings: its description (on a folded incident, as an occurrence note), answers, photos.
    for (const answer of answers) {
      await tx.db.insert(incidentChecklistAnswers).values({ entityId: tx.entityId, incidentId, ...answer });
    }
    for (const photo of scaled) {
      const fileId = await uploads.add(photo, { kind: "image", field: "photos" });
      await tx.db.insert(incidentFiles).values({ entityId: tx.entityId, incidentId, fileId });
    }

    let statusToken: string | null = null;
    if (input.email) {
      statusToken = randomBytes(24).toString("base64url");
      const inserted = await tx.db
        .insert(incidentReporters)
        .values({ entityId: tx.entityId, incidentId, email: input.email, locale, statusTokenHash: hashStatusToken(statusToken) })
        .onConflictDoNothing()
        .returning({ id: incidentReporters.id });
      if (inserted.length === 0) {
        // Reported before: a fresh link replaces the old one.
        await tx.db
          .update(incidentReporters)
          .set({ statusTokenHash: hashStatusToken(statusToken), locale })
          .where(and(eq(incidentReporters.incidentId, incidentId), eq(incidentReporters.entityId, tx.entityId), sql`lower(${incidentReporters.email}) = ${input.email}`));
      }
      const link = `${tx.appUrl ?? ""}/report/status/${statusToken}`;
      const mail = renderMail(locale, "report:mail.confirmation", { shortId, type: type.name, link });
      await effects.enqueue(sendEmailJob, { to: input.email, ...mail });
    }
    return { incidentId, shortId, outcome, statusToken };
  });
}

/** The place of a resolved identifier, as the incidents' writes take it. */
const placeOf = (resolved: { roomId: number; equipmentItemId: number | null }) => ({ roomId: resolved.roomId, equipmentItemId: resolved.equipmentItemId });

const reportableTypes = keptAnswers<Awaited<ReturnType<typeof getReportableIncidentType>>>({ maxEntries: 2_000, ttlMs: 60_000 });

/** The checklist answers kept: known questions only, checked against their content type. */
function checkAnswers(
  checklist: { position: number; question: string; contentType: number }[],
  given: Record<string, string | null>,
): { position: number; question: string; contentType: number; answer: string }[] {
  const errors: Record<string, string[]> = {};
  const kept: { position: number; question: string; contentType: number; answer: string }[] = [];
  for (const item of checklist) {
    const answer = given[String(item.position)];
    if (answer === null || answer === undefined || answer === "") continue;
    if (item.contentType === 0 && answer !== "yes" && answer !== "no") errors[`answers.${item.position}`] = ["report:validation.yesNo"];
    else if (item.contentType === 2 && !/^-?\d{1,12}([.,]\d{1,6})?$/.test(answer)) errors[`answers.${item.position}`] = ["report:validation.number"];
    else if (item.contentType !== 3) kept.push({ position: item.position, question: item.question, contentType: item.contentType, answer });
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return kept;
}

/** The first active default assignee of the type who reaches the room (`assigneeCandidates`), or nobody. */
async function firstDefaultAssignee(ctx: ServiceContext, incidentTypeId: number, roomId: number): Promise<number | null> {
  const [first] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(
      incidentTypeDefaultAssignees,
      and(
        eq(incidentTypeDefaultAssignees.userId, users.id),
        eq(incidentTypeDefaultAssignees.incidentTypeId, incidentTypeId),
        eq(incidentTypeDefaultAssignees.entityId, ctx.entityId),
      ),
    )
    .where(and(eq(users.entityId, ctx.entityId), eq(users.status, UserStatus.ACTIVE), assigneeCandidates(ctx, roomId)))
    .orderBy(sql`lower(${users.surname})`, sql`lower(${users.name})`, users.id)
    .limit(1);
  return first?.id ?? null;
}
