import type { CellContext, RowData } from "@tanstack/react-table";
import { type ListFeatures, listColumns } from "./data-table";
import { cellLinkClass } from "./styles";
import { TagList } from "./tag-list";

/** `meta.className` of a short id column (the first one): narrow, tabular figures. */
export const shortIdColumnClass = "w-20 tabular-nums";

/**
 * A cell whose value is a link: a name to its form (`linkCell((row) => `/update-building/${row.id}`)`),
 * a count to the list it counts. `ariaLabel` names the link when the value alone says too little. A plain
 * anchor: the `DataTable` around it keeps the click in the app.
 */
export function linkCell<T extends RowData, V extends string | number>(to: (row: T) => string, ariaLabel?: (row: T, value: V) => string) {
  return function LinkCell(c: CellContext<ListFeatures, T, V>) {
    const value = c.getValue();
    return (
      <a href={to(c.row.original)} aria-label={ariaLabel?.(c.row.original, value)} className={cellLinkClass}>
        {value}
      </a>
    );
  };
}

/** A cell linking to `to(row)` with the text `text(row)` (several of the row's values in one cell). */
export function textLinkCell<T extends RowData>(to: (row: T) => string, text: (row: T) => string) {
  return function TextLinkCell(c: CellContext<ListFeatures, T, unknown>) {
    return (
      <a href={to(c.row.original)} className={cellLinkClass}>
        {text(c.row.original)}
      </a>
    );
  };
}

/** A cell of tags, as badges. */
export function tagsCell<T extends RowData>(c: CellContext<ListFeatures, T, string[]>) {
  return <TagList tags={c.getValue()} />;
}

/** A count linking to the rows it counts, named "3 – " and what `describe` says (e.g. "Show the buildings of X"). */
export function countLinkCell<T extends RowData>(to: (row: T) => string, describe: (row: T) => string) {
  return linkCell<T, number>(to, (row, count) => `${count} – ${describe(row)}`);
}

/** The short id column of a list (its first): sorted by `shortId`. */
export function shortIdColumn<T extends RowData & { shortId: number }>(header: string) {
  return listColumns<T>().accessor((row) => row.shortId, { id: "shortId", header, meta: { sortKey: "shortId", className: shortIdColumnClass } });
}

/** The name column of a list: sorted by `name`, it titles a row's card and links to the row's form (`to`). */
export function nameLinkColumn<T extends RowData & { name: string }>(header: string, to: (row: T) => string) {
  return listColumns<T>().accessor((row) => row.name, { id: "name", header, meta: { sortKey: "name", cardTitle: true }, cell: linkCell(to) });
}

/** The last column of a list: "View", to the row's view (`to`), named by `label` ("View Main"); its header for screen readers only. */
export function viewColumn<T extends RowData>(texts: { header: string; view: string; label: (row: T) => string }, to: (row: T) => string) {
  return listColumns<T>().display({
    id: "actions",
    header: () => <span className="sr-only">{texts.header}</span>,
    meta: { className: "w-16 text-right" },
    cell: (c) => (
      <a href={to(c.row.original)} aria-label={texts.label(c.row.original)} className={cellLinkClass}>
        {texts.view}
      </a>
    ),
  });
}
