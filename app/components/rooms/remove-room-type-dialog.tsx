import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { MissingHint } from "~/components/forms/missing-hint";
import { ARCHIVE_DIALOG, ARCHIVE_INTENT } from "~/components/forms/archive-dialog";
import { SubmitButton } from "~/components/forms/form-parts";
import { SelectField } from "~/components/forms/select-field";
import { FormErrors, useErrorText, useZodForm, zodValidator } from "~/components/forms/zod-form";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { Dialog, DialogFooter, useUrlDialog } from "~/components/ui/dialog";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

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
  const dialog = useUrlDialog(ARCHIVE_DIALOG);
  return (
    <Dialog
      open={dialog.open}
      closeTo={dialog.closeTo}
      title={t("roomType.removeTitle", { name })}
      description={t("roomType.removeDescription")}
      closeLabel={t("common:actions.close")}
      size="md"
    >
      <RemoveForm
        name={name}
        rooms={rooms}
        incidentTypes={incidentTypes}
        otherTypes={otherTypes}
        closeTo={dialog.closeTo}
        lastResult={lastResult}
      />
    </Dialog>
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
      <Field
        label={t("common:archive.confirmLabel")}
        htmlFor={fields.confirmName.id}
        errors={text(fields.confirmName.errors)}
        description={t("common:archive.confirmHint", { name })}
        required
      >
        <Input
          {...getInputProps(fields.confirmName, { type: "text", ariaDescribedBy: `${fields.confirmName.id}-description` })}
          autoComplete="off"
          spellCheck={false}
          data-autofocus={inUse ? undefined : true}
        />
      </Field>
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
