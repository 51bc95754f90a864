import type { CellContext, RowData } from "@tanstack/react-table";
import type { ListFeatures } from "./data-table";
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

/** A cell of tags, as badges. */
export function tagsCell<T extends RowData>(c: CellContext<ListFeatures, T, string[]>) {
  return <TagList tags={c.getValue()} />;
}

/** A count linking to the rows it counts, named "3 – " and what `describe` says (e.g. "Show the buildings of X"). */
export function countLinkCell<T extends RowData>(to: (row: T) => string, describe: (row: T) => string) {
  return linkCell<T, number>(to, (row, count) => `${count} – ${describe(row)}`);
}
