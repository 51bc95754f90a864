/**
 * Classes of the list parts, apart from the table so that a page using one (the board's cards, a
 * notification) does not load the table library.
 */

/** The look of a link in a cell (e.g. the name linking to its form). */
export const cellLinkClass = "ui-link"; // the stylesheet's .ui-link (app/styles/tailwind.css)
/** `meta.className` of a number column: right-aligned, tabular figures. */
export const numberColumnClass = "text-right tabular-nums";
