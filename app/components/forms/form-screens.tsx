import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ArchiveTrigger } from "./archive-dialog";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";
import { FormPage } from "./form-parts";
import { useResultFor } from "./zod-form";

/**
 * The two shapes of a record's form screen, shared by the add and update routes of the facility tree and
 * the catalogue: the page (title, way back), the form posting `create` or `update` with the action's
 * reply for it, and on an update screen the archive (or remove) dialog and its button.
 */
type FormProps<I extends string> = { intent: I; submitLabel: string; lastResult: SubmissionResult<string[]> | undefined };

export function AddScreen({
  screen,
  backTo,
  backLabel,
  notice,
  form,
}: {
  /** The screen's id (its title is `common:screens.<id>`). */
  screen: string;
  backTo: string;
  backLabel: ReactNode;
  /** Shown above the form (e.g. what is needed first). */
  notice?: ReactNode;
  form: (props: FormProps<"create">) => ReactNode;
}) {
  const { t } = useTranslation();
  const resultFor = useResultFor();
  return (
    <FormPage title={t(`common:screens.${screen}`)} backTo={backTo} backLabel={backLabel}>
      {notice}
      {form({ intent: "create", submitLabel: t("common:actions.add"), lastResult: resultFor("create") })}
    </FormPage>
  );
}

export function UpdateScreen({
  screen,
  backTo,
  backLabel,
  subtitle,
  archiveLabel,
  archiveDialog,
  form,
}: {
  screen: string;
  backTo: string;
  backLabel: ReactNode;
  subtitle?: ReactNode;
  /** The archive (or remove) button's text. */
  archiveLabel: ReactNode;
  /** The dialog it opens, with the archive intent's reply. */
  archiveDialog: (lastResult: SubmissionResult<string[]> | undefined) => ReactNode;
  form: (props: FormProps<"update">) => ReactNode;
}) {
  const { t } = useTranslation();
  const resultFor = useResultFor();
  return (
    <>
      {archiveDialog(resultFor(ARCHIVE_INTENT))}
      <FormPage
        title={t(`common:screens.${screen}`)}
        subtitle={subtitle}
        backTo={backTo}
        backLabel={backLabel}
        actions={<ArchiveTrigger>{archiveLabel}</ArchiveTrigger>}
      >
        {form({ intent: "update", submitLabel: t("common:actions.save"), lastResult: resultFor("update") })}
      </FormPage>
    </>
  );
}
