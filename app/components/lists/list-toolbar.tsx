import { Form, Link, useLocation } from "@remix-run/react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select, type SelectProps } from "~/components/ui/select";
import { cn } from "~/lib/utils";
import { hiddenParams, listHref } from "./list-url";

/** The parameters a search keeps by default: the tab, the page size and the sort. */
export const KEPT_PARAMS = ["tab", "size", "sort", "dir"] as const;

export interface ListToolbarProps {
  /** The current name search (the `q` parameter). */
  q: string;
  /** Filter controls posted with the search (e.g. `<FilterSelect name="facilityId">`). */
  filters?: ReactNode;
  /** One select filter, the common case: the props of its `FilterSelect`. */
  filter?: FilterSelectProps;
  /** Parameters of the current address kept as hidden inputs (and by Clear); the rest is reset. */
  keep?: readonly string[];
  /** The primary action, on the right (e.g. an "Add facility" link button). */
  actions?: ReactNode;
  className?: string;
}

/**
 * The search bar above a list: a GET form with the name search, optional filters and the kept
 * parameters (a new search starts again at page 1), Search and Clear; the primary action on the right.
 */
export function ListToolbar({ q, filters, filter, keep = KEPT_PARAMS, actions, className }: ListToolbarProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const searchId = useId();
  const kept = hiddenParams(location.search, []).filter(([name]) => keep.includes(name));
  const clearTo = listHref({ pathname: location.pathname, search: "" }, Object.fromEntries(kept));
  const clearable = hiddenParams(location.search, [...keep, "page"]).some(([, value]) => value !== "");

  return (
    <div className={cn("flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between", className)}>
      <Form method="get" role="search" preventScrollReset className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        {kept.map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
        <div className="grid gap-1.5">
          <Label htmlFor={searchId}>{t("list.search")}</Label>
          <Input id={searchId} type="search" name="q" defaultValue={q} key={q} className="sm:w-64" autoComplete="off" />
        </div>
        {filters}
        {filter ? <FilterSelect {...filter} /> : null}
        <div className="flex gap-2">
          <Button type="submit" variant="secondary" className="flex-1 sm:flex-none">
            {t("list.searchButton")}
          </Button>
          {clearable ? (
            <Link to={clearTo} preventScrollReset className={cn(buttonVariants({ variant: "ghost" }), "flex-1 sm:flex-none")}>
              {t("list.clear")}
            </Link>
          ) : null}
        </div>
      </Form>
      {actions ? <div className="flex flex-wrap gap-2 sm:shrink-0 sm:flex-nowrap [&>*]:flex-auto sm:[&>*]:flex-none">{actions}</div> : null}
    </div>
  );
}

export interface FilterSelectProps extends Omit<SelectProps, "children" | "defaultValue" | "value" | "name"> {
  name: string;
  label: string;
  /** The chosen value (from the loader), "" for every option. */
  value: string | number | null;
  options: { value: string | number; label: string }[];
  /** The "every option" entry; defaults to common:list.all. */
  allLabel?: string;
  /** Classes of the label-and-select block (in a grid of filters: "content-start"). */
  fieldClassName?: string;
  /** The select's width; defaults to a fixed width in a toolbar row ("" to fill a grid cell). */
  widthClassName?: string;
}

/** A filter of the toolbar: a labelled native select, posted with the search. */
export function FilterSelect({ name, label, value, options, allLabel, fieldClassName, widthClassName = "sm:w-56", className, ...props }: FilterSelectProps) {
  const { t } = useTranslation();
  const id = useId();
  const current = value === null ? "" : String(value);
  return (
    <div className={cn("grid gap-1.5", fieldClassName)}>
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} name={name} defaultValue={current} key={current} wrapperClassName={widthClassName || undefined} className={className} {...props}>
        <option value="">{allLabel ?? t("list.all")}</option>
        {options.map((option) => (
          <option key={option.value} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </Select>
    </div>
  );
}
