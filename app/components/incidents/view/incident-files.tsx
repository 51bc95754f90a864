import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/components/forms/form-parts";
import { FormErrors, useErrorText } from "~/components/forms/zod-form";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogFooter, DialogTrigger } from "~/components/ui/dialog";
import { Field, fieldControlProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { FILE_PARAM, VIEW_INTENTS } from "~/lib/incident-view";
import { MAX_ATTACHMENTS } from "~/modules/incidents/constants";
import type { IncidentFile } from "~/modules/incidents/queries.server";
import { fileSize, useViewDialog } from "./format";

/** What the file inputs offer; the server decides by content. */
export const ACCEPT = ".png,.jpg,.jpeg,.gif,.webp,.pdf,.txt,.csv,.docx,.xlsx,.pptx,.odt,.ods";

export const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

/** The file input of an incident's attachments (several files), with the size and count hint below it. */
export function AttachmentsField({ label, id, errors, maxBytes }: { label: string; id: string; errors?: string[] | null; maxBytes: number }) {
  const { t } = useTranslation("incidentView");
  return (
    <Field label={label} htmlFor={id} errors={errors} description={t("files.hint", { size: megabytes(maxBytes), count: MAX_ATTACHMENTS })}>
      <Input
        type="file"
        name="files"
        multiple
        accept={ACCEPT}
        {...fieldControlProps(id, { errors, description: true })}
        className="h-auto cursor-pointer py-2 sm:h-auto"
      />
    </Field>
  );
}

const formErrorsOf = (result?: SubmissionResult<string[]>) => (result?.error?.[""] ?? null) as string[] | null;
const fieldErrorsOf = (result: SubmissionResult<string[]> | undefined, name: string) => (result?.error?.[name] ?? null) as string[] | null;

/**
 * Images as thumbnails (each a link to the image) and other files as download links; `actions`
 * renders per file (the incident's delete button).
 */
export function FileList({ files, actions }: { files: IncidentFile[]; actions?: (file: IncidentFile) => React.ReactNode }) {
  const { t, i18n } = useTranslation("incidentView");
  const images = files.filter((f) => f.isImage);
  const documents = files.filter((f) => !f.isImage);
  return (
    <div className="grid gap-3">
      {images.length ? (
        <ul className="flex flex-wrap gap-3">
          {images.map((file) => (
            <li key={file.id} className="grid w-28 gap-1">
              <a href={file.url} target="_blank" rel="noreferrer" className="block" title={file.name}>
                <img src={file.url} alt={t("files.image", { name: file.name })} loading="lazy" className="size-28 rounded border object-cover" />
              </a>
              {actions ? actions(file) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {documents.length ? (
        <ul className="grid gap-2">
          {documents.map((file) => (
            <li key={file.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <a href={file.url} download={file.name} className="min-w-0 break-all font-medium text-primary underline-offset-4 hover:underline">
                {t("files.download", { name: file.name })}
              </a>
              <span className="text-muted-foreground">{fileSize(file.size, i18n.language)}</span>
              {actions ? actions(file) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The incident's images and files, "Add files" (a multipart form) and a delete button per file. */
export function IncidentFiles({ files, maxBytes, lastResult }: { files: IncidentFile[]; maxBytes: number; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("incidentView");
  const text = useErrorText(["incidents"]);
  const dialog = useViewDialog("delete-file");
  const errors = text(fieldErrorsOf(lastResult, "files"));
  const inputId = "incident-add-files";
  return (
    <Card id="files">
      <CardHeader>
        <CardTitle as="h2">{t("incidents:fields.files")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        {files.length ? (
          <FileList
            files={files}
            actions={(file) => (
              <DialogTrigger
                to={dialog.openTo({ [FILE_PARAM]: file.id })}
                variant="link"
                size="sm"
                className="h-auto w-fit p-0 text-destructive"
                aria-label={t("files.deleteLabel", { name: file.name })}
              >
                {t("files.delete")}
              </DialogTrigger>
            )}
          />
        ) : (
          <p className="text-sm text-muted-foreground">{t("files.empty")}</p>
        )}
        <Form method="post" encType="multipart/form-data" className="grid gap-3 border-t pt-4" key={files.map((f) => f.id).join()}>
          <input type="hidden" name="intent" value={VIEW_INTENTS.addFiles} />
          <FormErrors errors={formErrorsOf(lastResult)} ns={["incidents"]} />
          <AttachmentsField label={t("files.add")} id={inputId} errors={errors} maxBytes={maxBytes} />
          <div>
            <SubmitButton intent={VIEW_INTENTS.addFiles}>{t("files.upload")}</SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/** `?dialog=delete-file&file=<id>`: the confirmation before a file of the incident is deleted. */
export function DeleteFileDialog({ files }: { files: IncidentFile[] }) {
  const { t } = useTranslation("incidentView");
  const dialog = useViewDialog("delete-file");
  const file = files.find((f) => f.id === dialog.params.get(FILE_PARAM));
  return (
    <Dialog
      open={dialog.open && Boolean(file)}
      closeTo={dialog.closeTo}
      title={t("files.deleteTitle", { name: file?.name ?? "" })}
      description={t("files.deleteText")}
      closeLabel={t("common:actions.close")}
      size="sm"
    >
      <Form method="post" className="grid gap-4">
        <input type="hidden" name="intent" value={VIEW_INTENTS.deleteFile} />
        <input type="hidden" name="fileId" value={file?.id ?? ""} />
        <DialogFooter className="mt-2">
          <Link to={dialog.closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
            {t("common:actions.cancel")}
          </Link>
          <SubmitButton intent={VIEW_INTENTS.deleteFile} variant="destructive">
            {t("files.delete")}
          </SubmitButton>
        </DialogFooter>
      </Form>
    </Dialog>
  );
}
