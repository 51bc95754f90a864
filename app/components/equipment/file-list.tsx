import { type FieldMetadata, getCollectionProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Checkbox } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import type { AttachedFile } from "~/modules/rooms/queries.server";

/** "12 KB", "1.4 MB" in the user's language. */
function fileSize(bytes: number, locale: string): string {
  const format = (value: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  if (bytes < 1024) return `${format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024)} KB`;
  return `${format(bytes / (1024 * 1024))} MB`;
}

/**
 * The stored files of a generic equipment: a thumbnail for images, an icon for documents, the name
 * as a link (opens the file), its size, and a "Delete" checkbox posting `deletedFiles` with the form.
 */
export function FileList({
  files,
  deletedFiles,
  errors,
}: {
  files: AttachedFile[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  deletedFiles: FieldMetadata<string[] | null | undefined, any, string[]>;
  errors?: string[];
}) {
  const { t, i18n } = useTranslation("equipment");
  const boxes = getCollectionProps(deletedFiles, { type: "checkbox", options: files.map((file) => file.id) });
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium">{t("type.currentFiles")}</h3>
      {files.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("type.noFiles")}</p>
      ) : (
        <ul className="grid gap-2">
          {files.map((file, index) => {
            const { key, type: _type, ...box } = boxes[index];
            return (
              <li key={file.id} className="flex items-center gap-3 rounded-md border p-2">
                <a
                  href={file.url}
                  target="_blank"
                  rel="noreferrer"
                  tabIndex={-1}
                  aria-hidden="true"
                  className="flex size-14 shrink-0 items-center justify-center overflow-hidden rounded bg-muted text-muted-foreground"
                >
                  {file.isImage ? (
                    <img src={file.url} alt="" className="size-full object-cover" />
                  ) : (
                    <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinejoin="round">
                      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5Z" />
                      <path d="M14 3v5h5" />
                    </svg>
                  )}
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
                  <Checkbox key={key} {...box} aria-label={t("type.deleteFileLabel", { name: file.name })} />
                  <Label htmlFor={box.id} className="cursor-pointer font-normal">
                    {t("type.deleteFile")}
                  </Label>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {errors?.length ? (
        <p id={deletedFiles.errorId} className="text-sm font-medium text-destructive">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
