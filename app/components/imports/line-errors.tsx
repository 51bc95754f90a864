import { useTranslation } from "react-i18next";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { BulkUploadErrorMessageType } from "~/db/enums";
import type { DataJobLineError } from "~/db/schema/data-jobs";
import { lineErrorLabel } from "~/modules/imports/types";

/** What is wrong on a line, in the reader's language (the missing mandatory column names its line and column). */
export function useLineErrorText() {
  const { t } = useTranslation("imports");
  return (e: DataJobLineError) => {
    const column = t(lineErrorLabel(e));
    if (e.type === BulkUploadErrorMessageType.MISSING_MANDATORY_COLUMN && !e.message) return t("errors.missingColumn", { line: e.line, column });
    return t(e.message ?? `messageType.${e.type}`, { other: e.other });
  };
}

/** Every fault of a file, in line order: line, column, what is wrong. */
export function LineErrors({ errors, caption }: { errors: DataJobLineError[]; caption: string }) {
  const { t } = useTranslation("imports");
  const text = useLineErrorText();
  return (
    <Table aria-label={caption}>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{t("line")}</TableHead>
          <TableHead scope="col">{t("column")}</TableHead>
          <TableHead scope="col">{t("problem")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {errors.map((e, i) => (
          <TableRow key={`${e.line}-${e.column}-${i}`}>
            <TableCell>{e.line}</TableCell>
            <TableCell>{t(lineErrorLabel(e))}</TableCell>
            <TableCell>{text(e)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
