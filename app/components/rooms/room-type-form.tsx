import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DefaultSubmit, FormActions } from "~/components/forms/form-parts";
import { TagsField } from "~/components/forms/tags-field";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateRoomType = zodValidator(() => import("~/modules/rooms/schema").then((m) => m.RoomTypeSchema));

export const ROOM_TYPES_LIST = "/room-type";

/** The room type form of /add-room-type and /update-room-type/{id}: name (required) and up to 3 tags. */
export function RoomTypeForm({
  roomType,
  intent,
  submitLabel,
  lastResult,
}: {
  roomType?: { roomTypeName: string; tags: string[] };
  intent: "create" | "update";
  submitLabel: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("rooms");
  const text = useErrorText();
  const [form, fields] = useZodForm(validateRoomType, {
    id: "room-type",
    lastResult,
    defaultValue: { roomTypeName: roomType?.roomTypeName ?? "", tags: roomType?.tags ?? [] },
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-6">
      <input type="hidden" name="intent" value={intent} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field label={t("roomType.name")} htmlFor={fields.roomTypeName.id} errors={text(fields.roomTypeName.errors)} required>
        <Input {...getInputProps(fields.roomTypeName, { type: "text" })} autoComplete="off" />
      </Field>
      <DefaultSubmit />
      <TagsField form={form} field={fields.tags} />
      <FormActions intent={intent} cancelTo={ROOM_TYPES_LIST} submitLabel={submitLabel} />
    </Form>
  );
}
