import { type FieldMetadata, type FormMetadata, getInputProps, getSelectProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { FormSection } from "~/components/forms/form-parts";
import { useErrorText } from "~/components/forms/zod-form";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
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
                <Field label={t("room.linkType")} htmlFor={row.type.id} errors={text(row.type.errors)} required>
                  <Select {...getSelectProps(row.type)} key={row.type.key}>
                    <option value="">{t("room.chooseLinkType")}</option>
                    {ROOM_LINK_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {t(linkTypeLabelKey(type))}
                      </option>
                    ))}
                  </Select>
                </Field>
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
                <Button
                  {...form.remove.getButtonProps({ name: field.name, index })}
                  variant="outline"
                  size="icon"
                  aria-label={t("room.removeLink", { number: index + 1 })}
                  title={t("common:actions.remove")}
                  className="justify-self-end sm:mt-7"
                >
                  <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
                    <path d="M18 6 6 18M6 6l12 12" />
                  </svg>
                </Button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {listErrors?.length ? (
        <p id={field.errorId} className="text-sm font-medium text-destructive">
          {listErrors.join(" ")}
        </p>
      ) : null}
      <div>
        <Button {...form.insert.getButtonProps({ name: field.name })} variant="outline" size="sm">
          {t("room.addLink")}
        </Button>
      </div>
    </FormSection>
  );
}
