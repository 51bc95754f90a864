import { z } from "zod";
import { COUNTRY_CODES } from "~/lib/countries";
import { optionalText as textOptional, requiredText as textRequired } from "~/lib/schema-helpers";
import { GREETING_LANGUAGES } from "./constants";

/**
 * Entity settings (SPEC.md sections 3, 5, 7): one shape for the settings form (client and server
 * validation), the service and the REST body. Client-safe. Messages are i18n keys.
 */

export const REQUIRED = "settings:validation.required";
const TOO_LONG = "settings:validation.tooLong";

/** Countries offered for addresses (ISO 3166-1 alpha-2): the EU, the EEA, Switzerland and the United Kingdom. */
export { COUNTRY_CODES, type CountryCode } from "~/lib/countries";


/** `#rrggbb`, stored lower-case. */
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export { GREETING_LANGUAGES, STICKER_SUGGESTED_SIZE } from "./constants";

export const requiredText = (max: number, message = REQUIRED) => textRequired(max, message, TOO_LONG);

/** Optional text: empty or missing becomes null. */
export const optionalText = (max: number) => textOptional(max, { invalid: "settings:validation.invalid", tooLong: TOO_LONG });

const CountrySchema = z.enum(COUNTRY_CODES, { error: "settings:validation.country" });

export const AddressSchema = z.object({
  streetName: requiredText(200),
  streetNumber: requiredText(20),
  suffix: optionalText(20),
  buildingFloor: optionalText(100),
  additionalInfo: optionalText(200),
  postalCode: requiredText(20),
  city: requiredText(100),
  country: CountrySchema,
});
export type AddressInput = z.infer<typeof AddressSchema>;
export type Address = { [K in keyof AddressInput]: AddressInput[K] | null };
export const ADDRESS_FIELDS = Object.keys(AddressSchema.shape) as (keyof AddressInput)[];

/** The billing address as posted: anything, checked only when it is not the same as the address. */
const LooseAddressSchema = z
  .object(Object.fromEntries(ADDRESS_FIELDS.map((k) => [k, z.unknown()])) as Record<keyof AddressInput, z.ZodUnknown>)
  .partial()
  .nullish();

const GreetingSchema = z.object({
  language: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "settings:validation.invalid" }),
  message: requiredText(1000),
});

const ColorSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  // (no abort: an aborting issue would also skip the cross-field rules below)
  .refine((value) => value === "" || HEX_COLOR.test(value), "settings:validation.color")
  .transform((value) => value.toLowerCase());

const WARRANTY_DAYS = "settings:validation.warrantyReminderDays";

/** The message of an unknown time zone (the service checks the zone against the server's list). */
export const UNKNOWN_TIME_ZONE = "settings:validation.timeZone";

/**
 * The entity's IANA time zone: optional (missing keeps the current one, so REST clients that predate it
 * still PUT). Here only its shape: the service checks it against the server's list of zones
 * (`isSupportedTimeZone`), which the browser's list may not match exactly.
 */
const TimeZoneSchema = z
  .string({ error: UNKNOWN_TIME_ZONE })
  .trim()
  .min(1, UNKNOWN_TIME_ZONE)
  .max(64, UNKNOWN_TIME_ZONE)
  .regex(/^[A-Za-z0-9_+\-/]+$/, UNKNOWN_TIME_ZONE)
  .optional();

/** The fields every transport posts (the REST body adds the logo, the form adds a file and a remove flag). */
export const entityShape = {
  name: requiredText(200, "settings:validation.entityName"),
  vatNumber: requiredText(40),
  address: AddressSchema,
  billingSameAsAddress: z.boolean({ error: "settings:validation.invalid" }).default(false),
  billingAddress: LooseAddressSchema,
  greetingsMessages: z.array(GreetingSchema, { error: REQUIRED }).max(3, "settings:validation.invalid"),
  templateColor: ColorSchema,
  templateTextColor: ColorSchema,
  timeZone: TimeZoneSchema,
  /**
   * How many days before an equipment item's warranty ends its managers are told (issue 63), 1 to 365;
   * optional like the time zone: missing keeps the current value.
   */
  warrantyReminderDays: z
    .number({ error: WARRANTY_DAYS })
    .int(WARRANTY_DAYS)
    .min(1, WARRANTY_DAYS)
    .max(365, WARRANTY_DAYS)
    .optional(),
};

type EntityShapeOutput = z.infer<z.ZodObject<typeof entityShape>>;

/**
 * Adds the cross-field rules: the billing address is required unless it is the same as the address,
 * and there is one greeting per language. The output carries the checked billing address (or null).
 */
export function withEntityRules<S extends z.ZodRawShape>(shape: S) {
  return z
    .object(shape)
    .superRefine((value, ctx) => {
      // Also runs when other fields failed, so that every message shows at once.
      const v = (value ?? {}) as unknown as Partial<EntityShapeOutput>;
      if (v.billingSameAsAddress !== true) {
        const billing = AddressSchema.safeParse(v.billingAddress ?? {});
        if (!billing.success) {
          for (const issue of billing.error.issues) {
            ctx.addIssue({ code: "custom", message: issue.message, path: ["billingAddress", ...issue.path] });
          }
        }
      }
      const messages = Array.isArray(v.greetingsMessages) ? v.greetingsMessages : [];
      GREETING_LANGUAGES.forEach((language, index) => {
        const count = messages.filter((m) => m?.language === language).length;
        if (count === 0) ctx.addIssue({ code: "custom", message: REQUIRED, path: ["greetingsMessages", index, "message"] });
        if (count > 1) ctx.addIssue({ code: "custom", message: "settings:validation.invalid", path: ["greetingsMessages"] });
      });
    }, { when: () => true })
    .transform((value) => {
      const v = value as unknown as EntityShapeOutput;
      const billingAddress = v.billingSameAsAddress ? null : AddressSchema.parse(v.billingAddress ?? {});
      return { ...value, billingAddress } as Omit<z.infer<z.ZodObject<S>>, "billingAddress"> & {
        billingAddress: AddressInput | null;
      };
    });
}

/** The entity tab of /settings (the logo file travels beside it, see the route). */
export const EntitySettingsFormSchema = withEntityRules({
  ...entityShape,
  removeLogo: z.boolean({ error: "settings:validation.invalid" }).default(false),
});
export type EntitySettingsFormInput = z.infer<typeof EntitySettingsFormSchema>;

/** An uploaded file handed to a service: its bytes and original name. */
export const UploadSchema = z.object({
  bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array, { error: "settings:files.invalidData" }),
  name: z.string().max(255).default("upload"),
});
export type UploadInput = z.input<typeof UploadSchema>;

/**
 * `updateEntity` input. `updateLogo` false keeps the logo; true replaces it with `newLogo`
 * (null removes it).
 */
export const UpdateEntitySchema = withEntityRules({
  ...entityShape,
  id: z.number().int().positive(),
  updateLogo: z.boolean().default(false),
  newLogo: UploadSchema.nullish(),
});
export type UpdateEntityInput = z.input<typeof UpdateEntitySchema>;

/**
 * PUT /api/entities/{id} body (SPEC.md section 7): `newLogo` is a base64 data URL. Without
 * `billingSameAsAddress`, a missing or null `billingAddress` means "the same as the address".
 */
export const PutEntityBodySchema = z.preprocess(
  (body) => {
    if (!body || typeof body !== "object" || Array.isArray(body)) return body;
    const b = body as Record<string, unknown>;
    return b.billingSameAsAddress === undefined ? { ...b, billingSameAsAddress: b.billingAddress == null } : b;
  },
  withEntityRules({
    ...entityShape,
    oldLogo: z.string().nullish(),
    newLogo: z.string({ error: "settings:files.invalidData" }).nullish(),
    updateLogo: z.boolean({ error: "settings:validation.invalid" }).default(false),
  }),
);

/** The explanatory-sticker form: an image file and a remove flag. */
export const StickerFormSchema = z.object({
  removeExplanatorySticker: z.boolean({ error: "settings:validation.invalid" }).default(false),
});

/** `updateExplanatorySticker` input: a new image, or null to remove it. */
export const UpdateStickerSchema = z.object({
  id: z.number().int().positive(),
  newExplanatorySticker: UploadSchema.nullable(),
});
export type UpdateStickerInput = z.input<typeof UpdateStickerSchema>;

/** PATCH /api/entities/{id}/explanatory-sticker body. */
export const PatchStickerBodySchema = z.object({
  oldExplanatorySticker: z.string().nullish(),
  newExplanatorySticker: z.string({ error: "settings:files.invalidData" }).nullable(),
});

/** Decodes a `data:<type>;base64,<data>` URL; null when it is not one. */
export function decodeDataUrl(value: string): Uint8Array | null {
  const match = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w-]+=[\w.+-]+)*;base64,([A-Za-z0-9+/=\s]*)$/.exec(value.trim());
  if (!match) return null;
  const clean = match[1].replace(/\s+/g, "");
  if (clean.length === 0 || clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(clean)) return null;
  if (typeof Buffer !== "undefined") return new Uint8Array(Buffer.from(clean, "base64"));
  const binary = atob(clean);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
