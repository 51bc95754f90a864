import { useTranslation } from "react-i18next";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { DataJobStatus } from "~/db/enums";
import { useDates } from "~/lib/use-dates";

/** An export as the tab lists it (the loader's `ExportView`, serialised). */
export interface ExportItem {
  id: number;
  type: number;
  format: string;
  status: number;
  progress: number;
  totalRows: number | null;
  processedRows: number;
  requestedBy: { id: number; name: string } | null;
  createdAt: string;
  expiresAt: string | null;
  expired: boolean;
  fileId: string | null;
  fileName: string | null;
  errorMessage: string | null;
}

/** The recent exports: what, when, who, how far, until when, and the download while the file exists. */
export function ExportsTable({ items }: { items: ExportItem[] }) {
  const { t } = useTranslation("exports");
  const dates = useDates();
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{t("list.empty")}</p>;
  return (
    <Table aria-label={t("list.title")}>
      <TableHeader>
        <TableRow>
          <TableHead>{t("list.type")}</TableHead>
          <TableHead>{t("list.format")}</TableHead>
          <TableHead>{t("list.status")}</TableHead>
          <TableHead>{t("list.requestedBy")}</TableHead>
          <TableHead>{t("list.createdAt")}</TableHead>
          <TableHead>{t("list.expiresAt")}</TableHead>
          <TableHead>{t("list.file")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.id} data-export-id={item.id} data-status={item.status}>
            <TableCell>{t(`types.${item.type}`)}</TableCell>
            <TableCell>{item.format.toUpperCase()}</TableCell>
            <TableCell>
              <span>{t(`status.${item.status}`)}</span>
              {item.status === DataJobStatus.RUNNING ? (
                <span className="block text-xs text-muted-foreground">
                  {item.totalRows
                    ? t("list.progress", { processed: item.processedRows, total: item.totalRows, progress: item.progress })
                    : t("list.processed", { processed: item.processedRows })}
                </span>
              ) : null}
              {item.status === DataJobStatus.SUCCEEDED ? <span className="block text-xs text-muted-foreground">{t("list.processed", { processed: item.processedRows })}</span> : null}
              {item.status === DataJobStatus.FAILED ? (
                <span className="block text-xs text-destructive">{t(item.errorMessage === "requester" ? "failure.requester" : item.errorMessage === "diskFull" ? "failure.diskFull" : "failure.failed")}</span>
              ) : null}
            </TableCell>
            <TableCell>{item.requestedBy?.name ?? ""}</TableCell>
            <TableCell>{dates.dateTime(item.createdAt)}</TableCell>
            <TableCell>{item.expiresAt ? dates.dateTime(item.expiresAt) : ""}</TableCell>
            <TableCell>
              {item.fileId ? (
                <a href={`/files/${item.fileId}`} download={item.fileName ?? undefined} className="font-medium text-primary underline-offset-4 hover:underline">
                  {t("list.download")}
                  <span className="sr-only"> {item.fileName}</span>
                </a>
              ) : item.expired && item.status === DataJobStatus.SUCCEEDED ? (
                <span className="text-muted-foreground">{t("list.expired")}</span>
              ) : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
