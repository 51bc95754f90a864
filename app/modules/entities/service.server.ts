import { and, eq, isNull } from "drizzle-orm";
import { type Input, resolveInput } from "~/core/input";
import { withTx } from "~/core/unit-of-work.server";
import type { Db } from "~/db/client.server";
import { type Entity, entities } from "~/db/schema";
import type { ServiceContext } from "~/core/context.server";
import { isSupportedTimeZone } from "~/lib/dates";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { checkImage, fileUrl, uploadsOf, type FilesContext } from "~/modules/files/uploads.server";
import { parseInput } from "~/lib/validation";
import { assertCanManageEntity } from "./policy.server";
import { type Address, GREETING_LANGUAGES, STICKER_SUGGESTED_SIZE, type UpdateEntityInput, UpdateEntitySchema, type UpdateStickerInput, UpdateStickerSchema, UNKNOWN_TIME_ZONE } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * The entity's settings (SPEC.md sections 3, 5, 7): read by every member, changed by facility
 * managers and administrators. Every read and write is filtered by `ctx.entityId`; another entity's
 * id is "not found".
 */


/** The entity as the settings screen and `GET /api/entities/{id}` show it (SPEC.md field names). */
export interface EntityView {
  id: number;
  name: string;
  vatNumber: string | null;
  greetingsMessages: { language: number; message: string }[];
  address: Address;
  /** The billing address; a copy of the address when `billingSameAsAddress`. */
  billingAddress: Address;
  billingSameAsAddress: boolean;
  /** `/files/<id>`, or null. */
  logo: string | null;
  templateColor: string;
  templateTextColor: string;
  /** IANA time zone: every date of the entity's screens, work orders and dashboard follows it. */
  timeZone: string;
  /** Days before an equipment item's warranty ends that its managers are told (issue 63). */
  warrantyReminderDays: number;
  updatedAt: string;
}

export interface StickerView {
  /** `/files/<id>`, or null. */
  explanatorySticker: string | null;
  suggestedWidth: number;
  suggestedHeight: number;
}



const entityNotFound = () => new NotFoundError("settings:errors.entityNotFound", "ENTITY_NOT_FOUND");

async function findEntity(db: Db, ctx: ServiceContext, id: number, lock = false): Promise<Entity> {
  if (id !== ctx.entityId) throw entityNotFound();
  const query = db
    .select()
    .from(entities)
    .where(and(eq(entities.id, ctx.entityId), isNull(entities.archivedAt)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw entityNotFound();
  return row;
}

function toView(row: Entity): EntityView {
  const address: Address = {
    streetName: row.streetName,
    streetNumber: row.streetNumber,
    suffix: row.suffix,
    buildingFloor: row.buildingFloor,
    additionalInfo: row.additionalInfo,
    postalCode: row.postalCode,
    city: row.city,
    country: row.country as Address["country"],
  };
  const billing: Address = {
    streetName: row.billingStreetName,
    streetNumber: row.billingStreetNumber,
    suffix: row.billingSuffix,
    buildingFloor: row.billingBuildingFloor,
    additionalInfo: row.billingAdditionalInfo,
    postalCode: row.billingPostalCode,
    city: row.billingCity,
    country: row.billingCountry as Address["country"],
  };
  const greetings = [row.greetingEn, row.greetingFr, row.greetingNl];
  return {
    id: row.id,
    name: row.name,
    vatNumber: row.vatNumber,
    greetingsMessages: GREETING_LANGUAGES.map((language, i) => ({ language, message: greetings[i] ?? "" })),
    address,
    billingAddress: row.billingSameAsAddress ? { ...address } : billing,
    billingSameAsAddress: row.billingSameAsAddress,
    logo: fileUrl(row.logoFileId),
    templateColor: row.templateColor,
    templateTextColor: row.templateTextColor,
    timeZone: row.timeZone,
    warrantyReminderDays: row.warrantyReminderDays,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One entity, for any member of it. */
export async function getEntity(ctx: ServiceContext, id: number): Promise<EntityView> {
  return toView(await findEntity(ctx.db, ctx, id));
}

/** Replaces the entity's settings (PUT semantics); the logo only changes when `updateLogo` is true. */
export async function updateEntity(ctx: FilesContext, rawInput: Input<UpdateEntityInput>): Promise<EntityView> {
  assertCanManageEntity(ctx);
  const raw = await resolveInput(rawInput);
  const input = parseInput(UpdateEntitySchema, raw);
  if (input.id !== ctx.entityId) throw entityNotFound();
  if (input.timeZone !== undefined && !isSupportedTimeZone(input.timeZone)) throw new ValidationError({ timeZone: [UNKNOWN_TIME_ZONE] });
  const newLogo = input.updateLogo && input.newLogo ? input.newLogo : null;
  if (newLogo) checkImage(newLogo, ctx.files.maxBytes, { kind: "logo", field: "newLogo", square: true });

  const greeting = (language: number) => input.greetingsMessages.find((g) => g.language === language)?.message ?? null;
  const billing = input.billingAddress;
  const saved = await withTx(ctx, async (txCtx, effects) => {
    const uploads = uploadsOf(txCtx, effects);
    const tx = txCtx.db;
    const current = await findEntity(tx, ctx, input.id, true);
    const logoFileId = input.updateLogo
      ? await uploads.replace(current.logoFileId, newLogo, { kind: "logo", field: "newLogo" })
      : current.logoFileId;
    const [row] = await tx
      .update(entities)
      .set({
        name: input.name,
        vatNumber: input.vatNumber,
        ...input.address,
        billingSameAsAddress: input.billingSameAsAddress,
        // The billing columns keep their last values when the address is used instead.
        ...(billing
          ? {
              billingStreetName: billing.streetName,
              billingStreetNumber: billing.streetNumber,
              billingSuffix: billing.suffix,
              billingBuildingFloor: billing.buildingFloor,
              billingAdditionalInfo: billing.additionalInfo,
              billingPostalCode: billing.postalCode,
              billingCity: billing.city,
              billingCountry: billing.country,
            }
          : {}),
        greetingEn: greeting(0),
        greetingFr: greeting(1),
        greetingNl: greeting(2),
        logoFileId,
        templateColor: input.templateColor,
        templateTextColor: input.templateTextColor,
        // A new zone recounts the dashboard's monthly counters in the same transaction (trigger of 0011).
        ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
        ...(input.warrantyReminderDays !== undefined ? { warrantyReminderDays: input.warrantyReminderDays } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(entities.id, ctx.entityId), isNull(entities.archivedAt)))
      .returning();
    await effects.audit({ action: AUDIT.entity.update, recordType: "entity", recordId: input.id });
    return row;
  });
  return toView(saved);
}

/** The explanatory-sticker image of the entity, for any member of it. */
export async function getExplanatorySticker(ctx: ServiceContext, id: number): Promise<StickerView> {
  const row = await findEntity(ctx.db, ctx, id);
  return {
    explanatorySticker: fileUrl(row.explanatoryStickerFileId),
    suggestedWidth: STICKER_SUGGESTED_SIZE.width,
    suggestedHeight: STICKER_SUGGESTED_SIZE.height,
  };
}

/** Replaces the explanatory-sticker image (null removes it). Its size is only a suggestion. */
export async function updateExplanatorySticker(ctx: FilesContext, rawInput: Input<UpdateStickerInput>): Promise<StickerView> {
  assertCanManageEntity(ctx);
  const raw = await resolveInput(rawInput);
  const input = parseInput(UpdateStickerSchema, raw);
  if (input.id !== ctx.entityId) throw entityNotFound();
  const upload = input.newExplanatorySticker;
  if (upload) checkImage(upload, ctx.files.maxBytes, { kind: "image", field: "newExplanatorySticker" });

  const saved = await withTx(ctx, async (txCtx, effects) => {
    const uploads = uploadsOf(txCtx, effects);
    const current = await findEntity(txCtx.db, ctx, input.id, true);
    const fileId = await uploads.replace(current.explanatoryStickerFileId, upload ?? null, { kind: "image", field: "newExplanatorySticker" });
    const [row] = await txCtx.db
      .update(entities)
      .set({ explanatoryStickerFileId: fileId, updatedAt: new Date() })
      .where(and(eq(entities.id, ctx.entityId), isNull(entities.archivedAt)))
      .returning();
    await effects.audit({ action: AUDIT.entity.updateExplanatorySticker, recordType: "entity", recordId: input.id });
    return row;
  });
  return {
    explanatorySticker: fileUrl(saved.explanatoryStickerFileId),
    suggestedWidth: STICKER_SUGGESTED_SIZE.width,
    suggestedHeight: STICKER_SUGGESTED_SIZE.height,
  };
}
