import * as React from "react";

import { cn } from "../../lib/utils";

export interface TableProps extends React.TableHTMLAttributes<HTMLTableElement> {
  /** Class for the scroll container around the table. */
  wrapperClassName?: string;
  /**
   * Names the scroll container, which then is a region: what a screen reader announces when the
   * keyboard reaches it to scroll the table (usually the table's caption).
   */
  scrollLabel?: string;
}

/**
 * `<table>` inside a horizontally scrollable container so wide tables work on
 * phones. The container is focusable (`tabIndex=0`) so keyboard users can
 * scroll it; give the table a `<TableCaption>` or `aria-label`.
 */
export const Table = React.forwardRef<HTMLTableElement, TableProps>(
  ({ className, wrapperClassName, scrollLabel, ...props }, ref) => (
    <div
      role={scrollLabel ? "region" : undefined}
      aria-label={scrollLabel}
      className={cn(
        "relative w-full overflow-x-auto rounded-md focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring",
        wrapperClassName,
      )}
      // Scrollable regions must be keyboard reachable.
      tabIndex={0}
    >
      <table
        ref={ref}
        className={cn("w-full caption-bottom border-collapse text-sm", className)}
        {...props}
      />
    </div>
  ),
);
Table.displayName = "Table";

export const TableHeader = React.forwardRef<
  HTMLTableSectionElement,
  React.HTMLAttributes<HTMLTableSectionElement>
>(({ className, ...props }, ref) => (
  <thead ref={ref} className={cn("[&_tr]:border-b", className)} {...props} />
));
TableHeader.displayName = "TableHeader";

export const TableBody = React.forwardRef<
  HTMLTableSectionElement,
  React.HTMLAttributes<HTMLTableSectionElement>
>(({ className, ...props }, ref) => (
  <tbody
    ref={ref}
    className={cn("[&_tr:last-child]:border-0", className)}
    {...props}
  />
));
TableBody.displayName = "TableBody";

export const TableRow = React.forwardRef<
  HTMLTableRowElement,
  React.HTMLAttributes<HTMLTableRowElement>
>(({ className, ...props }, ref) => (
  <tr
    ref={ref}
    className={cn(
      "ui-tr",
      className,
    )}
    {...props}
  />
));
TableRow.displayName = "TableRow";

export const TableHead = React.forwardRef<
  HTMLTableCellElement,
  React.ThHTMLAttributes<HTMLTableCellElement>
>(({ className, scope = "col", ...props }, ref) => (
  <th
    ref={ref}
    scope={scope}
    className={cn(
      "ui-th",
      className,
    )}
    {...props}
  />
));
TableHead.displayName = "TableHead";

export const TableCell = React.forwardRef<
  HTMLTableCellElement,
  React.TdHTMLAttributes<HTMLTableCellElement>
>(({ className, ...props }, ref) => (
  <td ref={ref} className={cn("ui-td", className)} {...props} />
));
TableCell.displayName = "TableCell";

export const TableCaption = React.forwardRef<
  HTMLTableCaptionElement,
  React.HTMLAttributes<HTMLTableCaptionElement>
>(({ className, ...props }, ref) => (
  <caption
    ref={ref}
    className={cn("mt-3 text-sm text-muted-foreground", className)}
    {...props}
  />
));
TableCaption.displayName = "TableCaption";
