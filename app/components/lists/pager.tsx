import { Form, useLocation, useSubmit } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { LinkArea } from "~/components/ui/link-area";
import { Select } from "~/components/ui/select";
import { type Page, PAGE_SIZES } from "~/lib/list-query";
import { useHydrated } from "~/lib/use-hydrated";
import { hiddenParams, pageHref, pageInfo } from "./list-url";
import { PagerLink } from "./pager-link";
import { Options } from "~/components/ui/options";

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
            <Options values={PAGE_SIZES} />
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

