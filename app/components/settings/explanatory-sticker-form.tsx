import type { z } from "zod";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { STICKER_SUGGESTED_SIZE } from "~/modules/entities/constants";
import type { StickerFormSchema } from "~/modules/entities/schema";
import { FormErrors } from "~/components/forms/zod-form";
import { SubmitButton, useErrorText } from "./form-parts";
import { ImageField } from "./image-field";
import { useLazyValidator, zodValidator } from "~/components/forms/zod-form";

/** Client-side validation, loaded when the form is first used (decision 021). */
const validateSticker = zodValidator(() => import("~/modules/entities/schema").then((m) => m.StickerFormSchema));

/** The explanatory-sticker image (suggested size 172 × 296 pixels), its own form and verb. */
export function ExplanatoryStickerForm({
  sticker,
  maxSize,
  lastResult,
}: {
  sticker: string | null;
  maxSize: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("settings");
  const text = useErrorText();
  const onValidate = useLazyValidator("sticker", validateSticker, Boolean(lastResult));
  const [form, fields] = useForm<z.input<typeof StickerFormSchema>, z.output<typeof StickerFormSchema>>({
    id: "sticker",
    lastResult,
    onValidate,
    shouldValidate: "onSubmit",
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("sticker.title")}</CardTitle>
        <CardDescription>{t("sticker.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid gap-6">
          <input type="hidden" name="intent" value="sticker" />
          <FormErrors id={form.errorId} errors={form.errors} ns={["settings"]} />
          <ImageField
            id="sticker-newExplanatorySticker"
            name="newExplanatorySticker"
            label={t("sticker.image")}
            hint={t("sticker.hint", { width: STICKER_SUGGESTED_SIZE.width, height: STICKER_SUGGESTED_SIZE.height, size: maxSize })}
            errors={text(form.allErrors.newExplanatorySticker)}
            currentUrl={sticker}
            alt={t("sticker.alt")}
            emptyText={t("sticker.none")}
            accept="image/png,image/jpeg,image/gif,image/webp"
            removeName={fields.removeExplanatorySticker.name}
            removeLabel={t("sticker.remove")}
            previewClassName="h-[148px] w-[86px]"
          />
          <div className="flex justify-end border-t pt-6">
            <SubmitButton intent="sticker">{t("sticker.save")}</SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
