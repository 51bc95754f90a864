import { useLocation } from "@remix-run/react";
import {
  type CellContext,
  type CellData,
  type Column,
  type ColumnDef,
  createColumnHelper,
  flexRender,
  type Row,
  type RowData,
  type Table as TableInstance,
  type TableFeatures,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LinkArea } from "~/components/ui/link-area";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { Page, SortDirection } from "~/lib/list-query";
import { cn } from "~/lib/utils";
import { sortHref } from "./list-url";
import { Pager } from "./pager";

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
  const leafColumns = table.getAllLeafColumns();

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
                {leafColumns.map((column) => (
                  <TableCell key={column.id} className={column.columnDef.meta?.className}>
                    {renderCell(column.columnDef.cell, cellContext(table, row, column))}
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

/**
 * What a column's `cell` template receives, as `cell.getContext()` gives it, without making the cell
 * objects (each with its own API) for every cell of the page: the value comes from the row, which keeps
 * it; `cell` is the library's own, made only if a template asks for it.
 */
function cellContext<T extends RowData>(table: TableInstance<ListFeatures, T>, row: Row<ListFeatures, T>, column: Column<ListFeatures, T, CellData>): CellContext<ListFeatures, T, CellData> {
  return {
    table,
    row,
    column,
    getValue: () => row.getValue(column.id),
    renderValue: () => row.getValue(column.id) ?? table.options.renderFallbackValue,
    get cell() {
      return row.getAllCells().find((cell) => cell.column.id === column.id)!;
    },
  };
}

type CellTemplate<T extends RowData> = Column<ListFeatures, T, CellData>["columnDef"]["cell"];

/**
 * A column's cell: a template function is rendered as a component of its own, as `flexRender` does, but
 * given the context object itself. `flexRender` hands the context to `createElement` as props, and copying
 * it reads `cell`, which makes the row's cell objects that the context exists to avoid.
 */
function renderCell<T extends RowData>(template: CellTemplate<T>, context: CellContext<ListFeatures, T, CellData>): ReactNode {
  if (typeof template === "function" && !(template.prototype as { isReactComponent?: unknown } | undefined)?.isReactComponent) {
    return <Cell template={template as (context: CellContext<ListFeatures, T, CellData>) => ReactNode} context={context} />;
  }
  return flexRender(template, context);
}

function Cell<T extends RowData>({ template, context }: { template: (context: CellContext<ListFeatures, T, CellData>) => ReactNode; context: CellContext<ListFeatures, T, CellData> }) {
  return template(context);
}

function SortIcon({ state }: { state: SortDirection | null }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className={cn("size-3.5 shrink-0", state ? "opacity-100" : "opacity-40")} fill="currentColor">
      {state !== "desc" ? <path d="M8 3 4.5 7h7L8 3Z" /> : null}
      {state !== "asc" ? <path d="M8 13 4.5 9h7L8 13Z" /> : null}
    </svg>
  );
}
