import { type FieldMetadata, getCollectionProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { FormSection } from "~/components/forms/form-parts";
import { useErrorText } from "~/components/forms/zod-form";
import { Checkbox } from "~/components/ui/checkbox";
import { Field, fieldControlProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import type { AttachedFile } from "~/modules/rooms/queries.server";
import type { RoomFormShape } from "./room-form-schema";

/** What the file picker offers (the storage checks the content anyway). */
const ACCEPT = ".png,.jpg,.jpeg,.gif,.webp,.pdf,.txt,.csv,.docx,.xlsx,.pptx,.odt,.ods";

/** "12 KB", "1.4 MB" in the user's language. */
export function fileSize(bytes: number, locale: string): string {
  const format = (value: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
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
 * Files and images of a room: on update the stored ones (thumbnail or icon, name linking to the file,
 * size, a "Delete" checkbox posting `deletedFiles`), and a multiple file input `newFiles`.
 */
export function RoomFilesField({
  files,
  deletedFiles,
  newFiles,
  formId,
  maxBytes,
}: {
  /** The stored files, or `null` on the add form. */
  files: AttachedFile[] | null;
  deletedFiles: FieldMetadata<string[] | null | undefined, RoomFormShape, string[]>;
  newFiles: FieldMetadata<unknown>;
  formId: string;
  maxBytes: number;
}) {
  const { t, i18n } = useTranslation("rooms");
  const text = useErrorText();
  const newFilesErrors = text(newFiles.errors);
  const deletedErrors = text(deletedFiles.errors);
  const newFilesId = `${formId}-newFiles`;
  const maxSize = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  const boxes = files ? getCollectionProps(deletedFiles, { type: "checkbox", options: files.map((file) => file.id) }) : [];

  return (
    <FormSection title={t("room.files")} description={t("room.filesHint")}>
      {files ? (
        <div className="grid gap-2">
          <h3 className="text-sm font-medium">{t("room.currentFiles")}</h3>
          {files.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("room.noFiles")}</p>
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
                      <Checkbox key={key} {...box} aria-label={t("room.deleteFileLabel", { name: file.name })} />
                      <Label htmlFor={box.id} className="cursor-pointer font-normal">
                        {t("room.deleteFile")}
                      </Label>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          {deletedErrors?.length ? (
            <p id={deletedFiles.errorId} className="text-sm font-medium text-destructive">
              {deletedErrors.join(" ")}
            </p>
          ) : null}
        </div>
      ) : null}
      <Field label={t("room.newFiles")} htmlFor={newFilesId} errors={newFilesErrors} description={t("room.newFilesHint", { size: maxSize })}>
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
