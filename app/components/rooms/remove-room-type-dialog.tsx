import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { MissingHint } from "~/components/forms/missing-hint";
import { ArchiveDialog, ARCHIVE_INTENT } from "~/components/forms/archive-dialog";
import { ConfirmNameField } from "~/components/forms/archive-footer";
import { SubmitButton } from "~/components/forms/form-parts";
import { SelectField } from "~/components/forms/select-field";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { DialogFooter } from "~/components/ui/dialog";

/**
 * The removal of a room type (SPEC.md sections 4, 5 and 8), the archive confirmation at
 * `?dialog=archive`: when rooms or incident types use the type, the warning and a replacement type
 * (required); then the name, retyped. Posts `intent=archive`, `replacementRoomType` and `confirmName`;
 * works without JavaScript.
 */
export function RemoveRoomTypeDialog({
  name,
  rooms,
  incidentTypes,
  otherTypes,
  lastResult,
}: {
  name: string;
  rooms: number;
  incidentTypes: number;
  otherTypes: { id: number; name: string }[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("rooms");
  return (
    <ArchiveDialog
      name={name}
      title={t("roomType.removeTitle", { name })}
      description={t("roomType.removeDescription")}
      size="md"
      form={(closeTo) => <RemoveForm name={name} rooms={rooms} incidentTypes={incidentTypes} otherTypes={otherTypes} closeTo={closeTo} lastResult={lastResult} />}
    />
  );
}

function RemoveForm({
  name,
  rooms,
  incidentTypes,
  otherTypes,
  closeTo,
  lastResult,
}: {
  name: string;
  rooms: number;
  incidentTypes: number;
  otherTypes: { id: number; name: string }[];
  closeTo: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("rooms");
  const text = useErrorText();
  const inUse = rooms > 0 || incidentTypes > 0;
  const validator = useMemo(
    () => zodValidator(() => import("./remove-room-type-schema").then((m) => m.removeRoomTypeFormSchema(inUse, name))),
    [inUse, name],
  );
  const [form, fields] = useZodForm(validator, { id: "remove-room-type", lastResult });
  const replacementHint = otherTypes.length ? (
    t("roomType.replacementHint")
  ) : (
    <MissingHint message={t("roomType.noReplacement")} to="/add-room-type" label={t("common:screens.add-room-type")} />
  );
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={ARCHIVE_INTENT} />
      <FormErrors id={form.errorId} errors={form.errors} />
      {inUse ? (
        <>
          <Alert variant="destructive" role="note">
            <p className="font-medium">{t("errors.roomTypeInUse")}</p>
            <p>{t("roomType.usage", { rooms, incidentTypes })}</p>
          </Alert>
          <SelectField
            label={t("roomType.replacement")}
            field={fields.replacementRoomType}
            errors={text(fields.replacementRoomType.errors)}
            description={replacementHint}
            required
            placeholder={t("roomType.chooseReplacement")}
            options={otherTypes}
          />
        </>
      ) : null}
      <ConfirmNameField name={name} field={fields.confirmName} errors={text(fields.confirmName.errors)} autoFocus={!inUse} />
      <DialogFooter className="mt-2">
        <Link to={closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
          {t("common:archive.cancel")}
        </Link>
        <SubmitButton intent={ARCHIVE_INTENT} variant="destructive">
          {t("roomType.removeAction")}
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}
