import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DefaultSubmit, FormActions } from "~/components/forms/form-parts";
import { TagsField } from "~/components/forms/tags-field";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { RATING_LANGUAGES } from "~/modules/rooms/rating-languages";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateRoomType = zodValidator(() => import("~/modules/rooms/schema").then((m) => m.RoomTypeSchema));

export const ROOM_TYPES_LIST = "/room-type";

/** The room type form of /add-room-type and /update-room-type/{id}: name (required), up to 3 tags and
 * the rating message in each language (optional). */
export function RoomTypeForm({
  roomType,
  intent,
  submitLabel,
  lastResult,
}: {
  roomType?: { roomTypeName: string; tags: string[]; roomTypeRatingMessages?: { language: number; message: string }[] };
  intent: "create" | "update";
  submitLabel: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("rooms");
  const text = useErrorText();
  const [form, fields] = useZodForm(validateRoomType, {
    id: "room-type",
    lastResult,
    defaultValue: {
      roomTypeName: roomType?.roomTypeName ?? "",
      tags: roomType?.tags ?? [],
      // One entry per language, blank where the type has no message in it.
      roomTypeRatingMessages: RATING_LANGUAGES.map((language) => ({
        language: String(language),
        message: roomType?.roomTypeRatingMessages?.find((m) => m.language === language)?.message ?? "",
      })),
    },
  });
  const ratingFields = fields.roomTypeRatingMessages.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field label={t("roomType.name")} htmlFor={fields.roomTypeName.id} errors={text(fields.roomTypeName.errors)} required>
        <Input {...getInputProps(fields.roomTypeName, { type: "text" })} autoComplete="off" />
      </Field>
      <DefaultSubmit />
      <TagsField form={form} field={fields.tags} />
      <fieldset className="grid gap-4">
        <legend className="mb-1 text-sm font-medium">{t("roomType.ratingMessages")}</legend>
        <p className="text-sm text-muted-foreground">{t("roomType.ratingMessagesHint")}</p>
        {RATING_LANGUAGES.map((language, i) => {
          const item = ratingFields[i]?.getFieldset();
          if (!item) return null;
          return (
            <Field key={language} label={t(`roomType.ratingMessage${language}`)} htmlFor={item.message.id} errors={text(item.message.errors)}>
              <input type="hidden" name={item.language.name} value={String(language)} />
              <Input {...getInputProps(item.message, { type: "text" })} autoComplete="off" />
            </Field>
          );
        })}
      </fieldset>
      <FormActions intent={intent} cancelTo={ROOM_TYPES_LIST} submitLabel={submitLabel} />
    </Form>
  );
}
