import type { ReactNode } from "react";
import { Field, fieldControlProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { cn } from "~/lib/utils";
import { CheckboxField } from "./form-parts";

/**
 * An image upload: the current image (or a placeholder), a file input, and, when there is an image,
 * a "remove" checkbox. A plain file input, so it posts with the form with or without JavaScript.
 */
export function ImageField({
  id,
  name,
  label,
  hint,
  errors,
  currentUrl,
  alt,
  emptyText,
  accept,
  removeName,
  removeLabel,
  previewClassName,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint: ReactNode;
  errors?: string[];
  currentUrl: string | null;
  alt: string;
  emptyText: string;
  accept: string;
  removeName: string;
  removeLabel: string;
  /** Size/shape of the preview box (square by default). */
  previewClassName?: string;
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <div
        className={cn(
          "flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted text-center text-xs text-muted-foreground",
          previewClassName,
        )}
      >
        {currentUrl ? <img src={currentUrl} alt={alt} className="size-full object-contain" /> : <span className="px-2">{emptyText}</span>}
      </div>
      <div className="grid min-w-0 flex-1 gap-3">
        <Field label={label} htmlFor={id} errors={errors} description={hint}>
          <Input type="file" name={name} accept={accept} {...fieldControlProps(id, { errors, description: true })} className="cursor-pointer" />
        </Field>
        {currentUrl ? <CheckboxField id={`${id}-remove`} name={removeName} label={removeLabel} /> : null}
      </div>
    </div>
  );
}
