import { z } from "zod";
import { INVALID, idList, tagsField, TOO_LONG } from "~/lib/schema-helpers";
import { decodeDataUrl } from "~/modules/entities/schema";
import type { Upload } from "~/modules/files/uploads.server";

/**
 * zod building blocks for REST bodies (SPEC.md section 7) whose shape differs from the forms': files as
 * base64 data URLs, references given as ids or as objects with an `id`, tags as strings or `{ label }`.
 * Client-safe; messages are i18n keys. The area's `api-body.ts` assembles them with its schemas.
 */
export const INVALID_FILE_DATA = "settings:files.invalidData";
/** Most files one request may add. */
export const MAX_API_FILES = 20;

const ApiFileSchema = z.object({
  name: z.string({ error: INVALID }).trim().min(1, INVALID).max(255, TOO_LONG),
  data: z.string({ error: INVALID_FILE_DATA }),
});

/**
 * Files sent as `[{ name, data }]` where `data` is a base64 data URL; they become uploads
 * `{ bytes, name }`. Missing means none; data that cannot be decoded is a field error on the field.
 */
export const apiFiles = () =>
  z
    .array(ApiFileSchema, { error: INVALID })
    .max(MAX_API_FILES, INVALID)
    .nullish()
    .transform((files, ctx): Upload[] => {
      const uploads: Upload[] = [];
      for (const file of files ?? []) {
        const bytes = decodeDataUrl(file.data);
        if (!bytes) {
          ctx.issues.push({ code: "custom", message: INVALID_FILE_DATA, input: file.data });
          return z.NEVER;
        }
        uploads.push({ bytes, name: file.name });
      }
      return uploads;
    });

/** A list of references given as ids (`[1, 2]`) or as objects with an id (`[{ id: 1 }]`). */
export const idRefs = () =>
  z.preprocess(
    (value) => (Array.isArray(value) ? value.map((v) => (v !== null && typeof v === "object" && "id" in v ? v.id : v)) : value),
    idList(),
  );

/** Tags given as strings (`["a"]`) or as labels (`[{ label: "a" }]`); the tag rules of section 5 apply. */
export const tagLabels = () =>
  z.preprocess(
    (value) =>
      Array.isArray(value) ? value.map((v) => (v !== null && typeof v === "object" && "label" in v ? v.label : v)) : value,
    tagsField(),
  );
