import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonVariants } from "~/components/ui/button";
import { DialogFooter } from "~/components/ui/dialog";
import { ARCHIVE_INTENT } from "~/lib/archive-intent";
import { SubmitButton } from "./form-parts";

/** The archive dialogs' buttons: cancel (back to the page) and the destructive confirmation. */
export function ArchiveFooter({ closeTo }: { closeTo: string }) {
  const { t } = useTranslation();
  return (
    <DialogFooter className="mt-2">
      <Link to={closeTo} preventScrollReset className={buttonVariants({ variant: "outline" })}>
        {t("archive.cancel")}
      </Link>
      <SubmitButton intent={ARCHIVE_INTENT} variant="destructive">
        {t("archive.action")}
      </SubmitButton>
    </DialogFooter>
  );
}
