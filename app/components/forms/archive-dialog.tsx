import type { SubmissionResult } from "@conform-to/react";
import { lazy, type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, DialogTrigger, useUrlDialog } from "~/components/ui/dialog";
import { ARCHIVE_DIALOG, ARCHIVE_INTENT } from "~/lib/archive-intent";
import { cn } from "~/lib/utils";

/**
 * The archive confirmation of SPEC.md section 5, a URL dialog (`?dialog=archive`) that works without
 * JavaScript: the user retypes the exact name, then the form posts `intent=archive` and `confirmName`.
 * The browser checks the name when JavaScript is on; the service is the authority (its "Wrong Name"
 * comes back in `lastResult`, beside the field).
 */
export { ARCHIVE_DIALOG, ARCHIVE_INTENT };

/**
 * The form loads when the dialog opens, or when the pointer or focus reaches its trigger (the pages that
 * offer archiving do not carry it). The server renders an open dialog whole (entry.server.tsx waits for
 * it). Its Suspense boundary lets a page opened at `?dialog=archive` hydrate while the form's code is
 * still on its way: the server's form stays in place until then, instead of failing the hydration.
 */
const loadForm = () => import("./archive-form");
const ArchiveForm = lazy(loadForm);
const preloadForm = () => void loadForm();

/** The button that opens the dialog (a link to `?dialog=archive`). */
export function ArchiveTrigger({ children, className }: { children?: ReactNode; className?: string }) {
  const { t } = useTranslation();
  const dialog = useUrlDialog(ARCHIVE_DIALOG);
  return (
    <DialogTrigger
      to={dialog.openTo}
      variant="outline"
      className={cn("text-destructive hover:text-destructive", className)}
      onPointerEnter={preloadForm}
      onFocus={preloadForm}
    >
      {children ?? t("archive.action")}
    </DialogTrigger>
  );
}

/**
 * `details` says what else is archived (the cascade of SPEC.md section 4). A dialog that asks more than
 * the name (a user's successors, a room type's replacement) passes its own `form` (given where the
 * dialog closes to), and may name its own `title`, `description` and `size`.
 */
export function ArchiveDialog({
  name,
  lastResult,
  details,
  title,
  description,
  size = "sm",
  form,
}: {
  name: string;
  lastResult?: SubmissionResult<string[]>;
  details?: ReactNode;
  title?: string;
  description?: string;
  size?: "sm" | "md";
  form?: (closeTo: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const dialog = useUrlDialog(ARCHIVE_DIALOG);
  return (
    <Dialog
      open={dialog.open}
      closeTo={dialog.closeTo}
      title={title ?? t("archive.title", { name })}
      description={description ?? t("archive.warning")}
      closeLabel={t("actions.close")}
      size={size}
    >
      {details ? <p className="mb-4 text-sm">{details}</p> : null}
      {form ? (
        form(dialog.closeTo)
      ) : (
        <Suspense fallback={null}>
          <ArchiveForm name={name} closeTo={dialog.closeTo} lastResult={lastResult} />
        </Suspense>
      )}
    </Dialog>
  );
}
