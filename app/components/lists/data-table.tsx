import { useLocation } from "@remix-run/react";
import { type CellContext, type CellData, type Column, type ColumnDef, createColumnHelper, flexRender, type Row, type RowData, type Table as TableInstance, type TableFeatures, tableFeatures, useTable } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LinkArea } from "~/components/ui/link-area";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { ListQuery, Page, SortDirection } from "~/lib/list-query";
import { cn } from "~/lib/utils";
import { sortHref } from "./list-url";
import { Pager } from "./pager";

declare module "@tanstack/react-table" {
  // Declaration merging: the generic parameters must match the library's.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<in out TFeatures extends TableFeatures, in out TData extends RowData, TValue extends CellData = CellData> {
    /** The `sort` value of the list query; a column with one gets a sort link in its header. */
    sortKey?: string;
    /** More sorts offered in the same header, each a sort link after the column's own (the incidents' due time beside their creation time). */
    moreSorts?: { key: string; label: string }[];
    /** Classes of the column's header and cells (e.g. "text-right" for numbers). */
    className?: string;
    /** The column whose value titles a row's card on a phone (default: the first column). */
    cardTitle?: boolean;
  }
}

/**
 * The table features of the lists: none beyond the core (rows, columns, headers, cells). Sorting and
 * paging are the server's; with TanStack Table 9 the features a table does not name are not in the
 * browser's bundle (decision 021).
 */
export const listFeatures = tableFeatures({});
export type ListFeatures = typeof listFeatures;

/** The column helper of a list of `T` rows. */
export function listColumns<T extends RowData>() {
  return createColumnHelper<ListFeatures, T>();
}

/** The props of a list's table: one page of rows, the list's query, and whether a search or a filter is active. */
export interface ListTableProps<T extends RowData> {
  page: Page<T>;
  query: ListQuery;
  filtered?: boolean;
}

/**
 * A list's caption and its two empty texts (nothing yet; nothing matches), the keys `<key>.caption`,
 * `<key>.empty` and `<key>.noMatch` of the list's namespace: `<DataTable {...listTexts(t, "rooms")} />`.
 */
export function listTexts(t: (key: string) => string, key: string): Pick<DataTableProps<RowData>, "caption" | "emptyText" | "noMatchText"> {
  return { caption: t(`${key}.caption`), emptyText: t(`${key}.empty`), noMatchText: t(`${key}.noMatch`) };
}

const defaultRowId = (row: unknown) => String((row as { id?: unknown }).id);

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
  /** Classes of the `<table>` (default: at least 40rem wide, scrolled sideways in its box when wider than it). */
  className?: string;
  /**
   * Rows as cards on a phone, each value after its column's name (the default); false for a table that has
   * a phone layout of its own (the incidents table).
   */
  cards?: boolean;
}

/**
 * A server-sorted, server-paged table (@tanstack/react-table renders the columns). Sortable headers,
 * the pager and the records-per-page form are plain links and a GET form that keep the other search
 * parameters, so everything works without JavaScript. The table is a `LinkArea`: its links (headers, cells,
 * pager) are plain anchors that navigate in the app with JavaScript on.
 */
export function DataTable<T extends RowData>({ columns, page, query, filtered = Boolean(query.q), caption, emptyText, noMatchText, getRowId, className = "min-w-[40rem]", cards = true }: DataTableProps<T>) {
  const { sort, dir } = query;
  const { t } = useTranslation();
  const location = useLocation();
  const rowId = getRowId ?? defaultRowId;
  const table = useTable({ features: listFeatures, data: page.items, columns, getRowId: rowId });
  const leafColumns = table.getAllLeafColumns();
  // The body is drawn from the page's items and the library's columns: the rows are PageRows (below), not
  // the library's row model, and the cells plain <td>s with their classes worked out once per column, not
  // a TableCell (forwardRef and class merging) each: a page has hundreds of cells.
  const rows = page.items.map((original, index) => new PageRow(table, rowId(original), index, original));
  const cellClasses = leafColumns.map((column) => cn("ui-td", column.columnDef.meta?.className));
  // Each cell names its column (`data-label`): on a phone the rows are cards, every value after its name,
  // under the card's title (`data-card-title`: the column marked `cardTitle`, else the first).
  const titleIndex = Math.max(0, leafColumns.findIndex((column) => column.columnDef.meta?.cardTitle));
  const cellLabels = leafColumns.map((column, index) =>
    cards && index !== titleIndex && typeof column.columnDef.header === "string" && column.columnDef.header ? column.columnDef.header : undefined,
  );

  return (
    <LinkArea className="grid gap-3">
      <Table className={cn(cards && "data-table", className)} wrapperClassName="border bg-background">
        <TableCaption className="sr-only">{caption}</TableCaption>
        <TableHeader className="bg-muted/50">
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id} className="hover:bg-transparent">
              {group.headers.map((header) => {
                const meta = header.column.columnDef.meta;
                const label = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
                const more = meta?.moreSorts ?? [];
                const sorted = (meta?.sortKey !== undefined && meta.sortKey === sort) || more.some((m) => m.key === sort);
                // A header of several sorts: only the link of the sort in use shows its direction.
                const sortLink = (key: string, text: ReactNode) => (
                  <a
                    key={key}
                    href={sortHref(location, key, { sort, dir })}
                    data-prevent-scroll-reset
                    data-unsorted={more.length > 0 && key !== sort ? "" : undefined}
                    className={key === sort ? "ui-sort text-foreground" : "ui-sort"}
                  >
                    {text}
                  </a>
                );
                return (
                  <TableHead
                    key={header.id}
                    colSpan={header.colSpan}
                    aria-sort={sorted ? (dir === "asc" ? "ascending" : "descending") : undefined}
                    className={meta?.className}
                  >
                    {meta?.sortKey && label ? [sortLink(meta.sortKey, label), ...more.map((m) => sortLink(m.key, m.label))] : label}
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
              <tr key={row.id} className="ui-tr">
                {leafColumns.map((column, index) => (
                  <td key={column.id} className={cellClasses[index]} data-label={cellLabels[index]} data-card-title={cards && index === titleIndex ? "" : undefined}>
                    {renderCell(column.columnDef.cell, cellContext(row, column))}
                  </td>
                ))}
              </tr>
            ))
          )}
        </TableBody>
      </Table>
      {page.capped ? <p className="text-sm text-muted-foreground">{t("list.capped", { total: page.total })}</p> : null}
      {page.total > 0 ? <Pager page={page} /> : null}
    </LinkArea>
  );
}

const NO_ROWS: never[] = [];

/**
 * A row of the page as cell templates see it (`c.row`): its id, index and item (`original`) and its values,
 * read straight from the item. The library's row model (a row object with its caches and cell objects for
 * every row) is made only if a template asks for what only it has (`getAllCells`, ...). The lists have no
 * sub-rows: depth 0, no parent.
 */
class PageRow<T extends RowData> {
  readonly depth = 0;
  readonly parentId = undefined;
  readonly subRows: Row<ListFeatures, T>[] = NO_ROWS;
  constructor(
    readonly table: TableInstance<ListFeatures, T>,
    readonly id: string,
    readonly index: number,
    readonly original: T,
  ) {}

  getValue<V>(columnId: string): V {
    return this.table.getColumn(columnId)?.accessorFn?.(this.original, this.index) as V;
  }

  renderValue<V>(columnId: string): V {
    return (this.getValue<V>(columnId) ?? this.table.options.renderFallbackValue) as V;
  }

  /** The library's own row, for everything else. */
  private full(): Row<ListFeatures, T> {
    return this.table.getRow(this.id);
  }

  getDisplayIndex() {
    return this.index;
  }

  getAllCells() {
    return this.full().getAllCells();
  }

  getAllCellsByColumnId() {
    return this.full().getAllCellsByColumnId();
  }

  getLeafRows() {
    return this.full().getLeafRows();
  }

  getParentRow() {
    return undefined;
  }

  getParentRows(): Row<ListFeatures, T>[] {
    return NO_ROWS;
  }

  getUniqueValues<V>(columnId: string) {
    return this.full().getUniqueValues<V>(columnId);
  }
}

/**
 * What a column's `cell` template receives, as `cell.getContext()` gives it, without making the cell
 * objects: the value is read once from the item; `cell` is the library's own, made only if a template
 * asks for it. A class, so that a page's hundreds of cells share their methods: templates call them on the
 * context (`c.getValue()`), never destructured.
 */
class PageCellContext<T extends RowData> {
  private readonly value: CellData;
  constructor(
    readonly row: PageRow<T>,
    readonly column: Column<ListFeatures, T, CellData>,
  ) {
    this.value = column.accessorFn?.(row.original, row.index) as CellData;
  }

  get table() {
    return this.row.table;
  }

  get cell() {
    return this.row.getAllCells().find((cell) => cell.column.id === this.column.id)!;
  }

  getValue() {
    return this.value;
  }

  renderValue() {
    return this.value ?? this.row.table.options.renderFallbackValue;
  }
}

function cellContext<T extends RowData>(row: PageRow<T>, column: Column<ListFeatures, T, CellData>): CellContext<ListFeatures, T, CellData> {
  return new PageCellContext(row, column) as unknown as CellContext<ListFeatures, T, CellData>;
}

type CellTemplate<T extends RowData> = Column<ListFeatures, T, CellData>["columnDef"]["cell"];

/**
 * A column's cell. A template function is called with the context (the table-core default,
 * `renderValue()` as text, included); a component (class, memo, forwardRef) is rendered with
 * `flexRender`. Templates are called, not mounted, so they must not use hooks: a cell that needs one
 * returns an element of a component that does (e.g. `<TagList>`).
 */
function renderCell<T extends RowData>(template: CellTemplate<T>, context: CellContext<ListFeatures, T, CellData>): ReactNode {
  if (typeof template === "function" && !(template.prototype as { isReactComponent?: unknown } | undefined)?.isReactComponent) {
    return (template as (context: CellContext<ListFeatures, T, CellData>) => ReactNode)(context);
  }
  return flexRender(template, context);
}
