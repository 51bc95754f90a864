import { type FieldMetadata, type FormMetadata, getCollectionProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { FormSection } from "~/components/forms/form-parts";
import { ErrorText, useErrorText } from "~/components/forms/zod-form";
import { Checkbox } from "~/components/ui/checkbox";
import { Field, fieldControlProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { AttachedFile } from "~/modules/rooms/queries.server";
import { numberFormat } from "~/lib/intl";

/** What the file picker offers; the server decides by content (modules/files/sniff.ts). */
const ACCEPT = ".png,.jpg,.jpeg,.gif,.webp,.pdf,.txt,.csv,.docx,.xlsx,.pptx,.odt,.ods";

/** "12 KB", "1.4 MB" in the user's language. */
export function fileSize(bytes: number, locale: string): string {
  const format = (value: number) => numberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  if (bytes < 1024) return `${format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024)} KB`;
  return `${format(bytes / (1024 * 1024))} MB`;
}

/** A file as a thumbnail (images) or a document icon. */
export function FileThumb({ file, className = "size-14" }: { file: AttachedFile; className?: string }) {
  return (
    <span className={`flex shrink-0 items-center justify-center overflow-hidden rounded bg-muted text-muted-foreground ${className}`}>
      {file.isImage ? (
        <img src={file.url} alt="" loading="lazy" className="size-full object-cover" />
      ) : (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinejoin="round">
          <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5Z" />
          <path d="M14 3v5h5" />
        </svg>
      )}
    </span>
  );
}

/**
 * The "Files and images" section of a form that takes attachments (a room, a generic equipment), in
 * a multipart post: on update the stored files (thumbnail or icon, the name linking to the file, its
 * size, a "Delete" checkbox posting `deletedFiles`), then the multiple file input `newFiles`. The
 * form's schema has `deletedFiles`; `newFiles` travel beside it, but the service's file errors come
 * back under that name (conform's fieldset answers any name).
 *
 * The texts are the area's, under `keyPrefix` in `ns`: files, filesHint, currentFiles, noFiles,
 * deleteFile, deleteFileLabel ({{name}}), newFiles, newFilesHint ({{size}} in MB).
 */
export function FilesField({
  form,
  files,
  maxBytes,
  ns,
  keyPrefix,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>;
  /** The stored files, or `null` on an add form. */
  files: AttachedFile[] | null;
  maxBytes: number;
  ns: string;
  keyPrefix: string;
}) {
  const { t, i18n } = useTranslation(ns, { keyPrefix });
  const text = useErrorText();
  const { deletedFiles, newFiles } = form.getFieldset() as {
    deletedFiles: FieldMetadata<string[] | null | undefined>;
    newFiles: FieldMetadata<unknown>;
  };
  const newFilesErrors = text(newFiles.errors);
  const deletedErrors = text(deletedFiles.errors);
  const newFilesId = `${form.id}-newFiles`;
  const maxSize = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  const boxes = files ? getCollectionProps(deletedFiles, { type: "checkbox", options: files.map((file) => file.id) }) : [];

  return (
    <FormSection title={t("files")} description={t("filesHint")}>
      {files ? (
        <div className="grid gap-2">
          <h3 className="text-sm font-medium">{t("currentFiles")}</h3>
          {files.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("noFiles")}</p>
          ) : (
            <ul className="grid gap-2">
              {files.map((file, index) => {
                const { key, type: _type, ...box } = boxes[index];
                return (
                  <li key={file.id} className="flex items-center gap-3 rounded-md border p-2">
                    <a href={file.url} target="_blank" rel="noreferrer" tabIndex={-1} aria-hidden="true">
                      <FileThumb file={file} />
                    </a>
                    <div className="grid min-w-0 flex-1 gap-0.5">
                      <a
                        href={file.url}
                        target="_blank"
                        rel="noreferrer"
                        className="truncate text-sm font-medium text-primary underline-offset-4 hover:underline"
                      >
                        {file.name}
                      </a>
                      <span className="text-xs text-muted-foreground">{fileSize(file.sizeBytes, i18n.language)}</span>
                    </div>
                    <div className="flex shrink-0 items-center gap-2">
                      <Checkbox key={key} {...box} aria-label={t("deleteFileLabel", { name: file.name })} />
                      <Label htmlFor={box.id} className="cursor-pointer font-normal">
                        {t("deleteFile")}
                      </Label>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          <ErrorText id={deletedFiles.errorId} errors={deletedErrors} />
        </div>
      ) : null}
      <Field label={t("newFiles")} htmlFor={newFilesId} errors={newFilesErrors} description={t("newFilesHint", { size: maxSize })}>
        <Input
          type="file"
          name="newFiles"
          multiple
          accept={ACCEPT}
          {...fieldControlProps(newFilesId, { errors: newFilesErrors, description: true })}
          className="h-auto cursor-pointer py-2 sm:h-auto"
        />
      </Field>
    </FormSection>
  );
}
