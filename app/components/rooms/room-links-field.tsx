import { type FieldMetadata, type FormMetadata, getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { FormSection, RemoveRowButton } from "~/components/forms/form-parts";
import { SelectField } from "~/components/forms/select-field";
import { ErrorText, useErrorText } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import type { RoomLinkInput } from "~/modules/rooms/schema";
import { linkTypeLabelKey, ROOM_LINK_TYPES } from "./link-types";
import type { RoomFormShape } from "./room-form-schema";

/**
 * The links of a room (SPEC.md sections 1 and 5): one row per link with its kind (one of the ten) and
 * its URL, a Remove button each and "Add link"; conform list intents, so they work without JavaScript.
 */
export function RoomLinksField({
  form,
  field,
}: {
  form: FormMetadata<RoomFormShape, string[]>;
  field: FieldMetadata<RoomLinkInput[] | null | undefined, RoomFormShape, string[]>;
}) {
  const { t } = useTranslation("rooms");
  const text = useErrorText();
  const links = field.getFieldList();
  const listErrors = text(field.errors);
  return (
    <FormSection title={t("room.links")} description={t("room.linksHint")}>
      {links.length === 0 ? <p className="text-sm text-muted-foreground">{t("room.noLinks")}</p> : null}
      {links.length > 0 ? (
        <ul className="grid gap-3">
          {links.map((link, index) => {
            const row = link.getFieldset();
            return (
              <li key={link.key} className="grid items-start gap-3 rounded-md border p-3 sm:grid-cols-[14rem_minmax(0,1fr)_2.5rem]">
                <SelectField
                  key={row.type.key}
                  label={t("room.linkType")}
                  field={row.type}
                  errors={text(row.type.errors)}
                  required
                  placeholder={t("room.chooseLinkType")}
                  options={ROOM_LINK_TYPES.map((type) => ({ id: type, name: t(linkTypeLabelKey(type)) }))}
                />
                <Field label={t("room.url")} htmlFor={row.url.id} errors={text(row.url.errors)} required>
                  <Input
                    {...getInputProps(row.url, { type: "text" })}
                    key={row.url.key}
                    inputMode="url"
                    autoComplete="url"
                    spellCheck={false}
                    placeholder="https://"
                  />
                </Field>
                <RemoveRowButton
                  {...form.remove.getButtonProps({ name: field.name, index })}
                  aria-label={t("room.removeLink", { number: index + 1 })}
                  className="justify-self-end sm:mt-7"
                />
              </li>
            );
          })}
        </ul>
      ) : null}
      <ErrorText id={field.errorId} errors={listErrors} />
      <div>
        <Button {...form.insert.getButtonProps({ name: field.name })} variant="outline" size="sm">
          {t("room.addLink")}
        </Button>
      </div>
    </FormSection>
  );
}
