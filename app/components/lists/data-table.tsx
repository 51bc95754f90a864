import { Form, useLocation, useSubmit } from "@remix-run/react";
import { type CellData, type ColumnDef, createColumnHelper, flexRender, type RowData, type TableFeatures, tableFeatures, useTable } from "@tanstack/react-table";
import { type ReactNode, useId, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { LinkArea } from "~/components/ui/link-area";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { type Page, PAGE_SIZES, type SortDirection } from "~/lib/list-query";
import { cn } from "~/lib/utils";
import { hiddenParams, pageHref, pageInfo, sortHref } from "./list-url";
import { PagerLink } from "./pager-link";

declare module "@tanstack/react-table" {
  // Declaration merging: the generic parameters must match the library's.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<in out TFeatures extends TableFeatures, in out TData extends RowData, TValue extends CellData = CellData> {
    /** The `sort` value of the list query; a column with one gets a sort link in its header. */
    sortKey?: string;
    /** Classes of the column's header and cells (e.g. "text-right" for numbers). */
    className?: string;
  }
}

/**
 * The table features of the lists: none beyond the core (rows, columns, headers, cells). Sorting and
 * paging are the server's; with TanStack Table 9 the features a table does not name are not in the
 * browser's bundle (decision 034).
 */
export const listFeatures = tableFeatures({});
export type ListFeatures = typeof listFeatures;

/** The column helper of a list of `T` rows. */
export function listColumns<T extends RowData>() {
  return createColumnHelper<ListFeatures, T>();
}

/** The look of a link in a cell (e.g. the name linking to its form). */
export const cellLinkClass = "font-medium text-primary underline-offset-4 hover:underline";
/** `meta.className` of a number column: right-aligned, tabular figures. */
export const numberColumnClass = "text-right tabular-nums";

export interface DataTableProps<T extends RowData> {
  /** Column definitions; headers should be plain text (they name the sort links). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<ListFeatures, T, any>[];
  /** One page of rows, already sorted and paged by the server. */
  page: Page<T>;
  /** The list query of the address: the sort (header links), and the search (`q`). */
  query: { sort: string; dir: SortDirection; q?: string };
  /**
   * Whether a search or a filter is active: an empty page then shows `noMatchText`, not `emptyText`.
   * Defaults to "a search is active"; pass it when the list has filters too.
   */
  filtered?: boolean;
  /** Names the table for screen readers (a visually hidden caption). */
  caption: string;
  /** Shown when there are no rows at all. */
  emptyText?: ReactNode;
  /** Shown when a search or filter leaves no rows. */
  noMatchText?: ReactNode;
  /** Row key; defaults to `row.id`. */
  getRowId?: (row: T) => string;
}

/**
 * A server-sorted, server-paged table (@tanstack/react-table renders the columns). Sortable headers,
 * the pager and the records-per-page form are plain links and a GET form that keep the other search
 * parameters, so everything works without JavaScript. The table is a `LinkArea`: its links (headers, cells,
 * pager) are plain anchors that navigate in the app with JavaScript on.
 */
export function DataTable<T extends RowData>({ columns, page, query, filtered = Boolean(query.q), caption, emptyText, noMatchText, getRowId }: DataTableProps<T>) {
  const { sort, dir } = query;
  const { t } = useTranslation();
  const location = useLocation();
  const table = useTable({
    features: listFeatures,
    data: page.items,
    columns,
    getRowId: getRowId ?? ((row) => String((row as { id?: unknown }).id)),
  });
  const rows = table.getRowModel().rows;

  return (
    <LinkArea className="grid gap-3">
      <Table className="min-w-[40rem]" wrapperClassName="border bg-background">
        <TableCaption className="sr-only">{caption}</TableCaption>
        <TableHeader className="bg-muted/50">
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id} className="hover:bg-transparent">
              {group.headers.map((header) => {
                const meta = header.column.columnDef.meta;
                const label = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
                const sorted = meta?.sortKey !== undefined && meta.sortKey === sort;
                return (
                  <TableHead
                    key={header.id}
                    colSpan={header.colSpan}
                    aria-sort={sorted ? (dir === "asc" ? "ascending" : "descending") : undefined}
                    className={meta?.className}
                  >
                    {meta?.sortKey && label ? (
                      <a
                        href={sortHref(location, meta.sortKey, { sort, dir })}
                        data-prevent-scroll-reset
                        className={cn(
                          "-mx-1 inline-flex items-center gap-1 rounded px-1 py-1 hover:text-foreground",
                          "focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring",
                          sorted && "text-foreground",
                        )}
                      >
                        {label}
                        <SortIcon state={sorted ? dir : null} />
                      </a>
                    ) : (
                      label
                    )}
                  </TableHead>
                );
              })}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow className="hover:bg-transparent">
              <TableCell colSpan={columns.length} className="py-10 text-center text-muted-foreground">
                {filtered ? (noMatchText ?? t("list.noMatch")) : (emptyText ?? t("list.empty"))}
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => (
              <TableRow key={row.id}>
                {row.getAllCells().map((cell) => (
                  <TableCell key={cell.id} className={cell.column.columnDef.meta?.className}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      {page.capped ? <p className="text-sm text-muted-foreground">{t("list.capped", { total: page.total })}</p> : null}
      {page.total > 0 ? <Pager page={page} /> : null}
    </LinkArea>
  );
}

function SortIcon({ state }: { state: SortDirection | null }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className={cn("size-3.5 shrink-0", state ? "opacity-100" : "opacity-40")} fill="currentColor">
      {state !== "desc" ? <path d="M8 3 4.5 7h7L8 3Z" /> : null}
      {state !== "asc" ? <path d="M8 13 4.5 9h7L8 13Z" /> : null}
    </svg>
  );
}

const noopSubscribe = () => () => {};
/** false on the server and during hydration, true once JavaScript runs. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
}

/** "1–25 of 73", records per page, and Previous / "Page 1 of 3" / Next. */
export function Pager<T>({ page }: { page: Page<T> }) {
  const { t } = useTranslation();
  const location = useLocation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const sizeId = useId();
  const info = pageInfo({ total: page.total, page: page.page, size: page.size, count: page.items.length });

  return (
    <div className="flex flex-col gap-3 text-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <p className="text-muted-foreground">
          {t(page.capped ? "list.rangeCapped" : "list.range", { from: info.from, to: info.to, total: page.total })}
        </p>
        <Form method="get" preventScrollReset className="flex items-center gap-2">
          {hiddenParams(location.search, ["size", "page"]).map(([name, value], i) => (
            <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
          ))}
          <Label htmlFor={sizeId} className="whitespace-nowrap font-normal text-muted-foreground">
            {t("list.perPage")}
          </Label>
          <Select
            id={sizeId}
            name="size"
            defaultValue={String(page.size ?? "")}
            wrapperClassName="w-auto"
            className="h-9 w-20 sm:h-9"
            onChange={(event) => {
              if (event.currentTarget.form) submit(event.currentTarget.form, { preventScrollReset: true });
            }}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </Select>
          {hydrated ? null : (
            <Button type="submit" variant="outline" size="sm">
              {t("list.apply")}
            </Button>
          )}
        </Form>
      </div>
      <LinkArea as="nav" aria-label={t("list.pagination")} className="flex items-center justify-between gap-2 sm:justify-end">
        <PagerLink to={info.previous ? pageHref(location, info.previous) : null} rel="prev">
          {t("list.previous")}
        </PagerLink>
        <span className="px-2 text-muted-foreground">{t("list.page", { page: page.page, pages: info.pages })}</span>
        <PagerLink to={info.next ? pageHref(location, info.next) : null} rel="next">
          {t("list.next")}
        </PagerLink>
      </LinkArea>
    </div>
  );
}

