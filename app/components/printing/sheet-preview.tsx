import { useTranslation } from "react-i18next";
import { numberFormat } from "~/lib/intl";
import { COLUMNS, firstSheetPlan, LABEL_HEIGHT_MM, LABEL_WIDTH_MM, LABELS_PER_SHEET, type StartCell } from "~/modules/printing/layout";
import { Options } from "~/components/ui/options";

/**
 * The first sheet in miniature (decision 053): the 21 labels, 3 by 7, at the sheet's proportions, each
 * marked "already used" (before the starting cell), "sticker" or "left blank". Server-rendered HTML.
 */
export function SheetPreview({ count, start, title }: { count: number; start: StartCell; title: string }) {
  const { t } = useTranslation("printing");
  const plan = firstSheetPlan(count, start);
  return (
    <figure className="grid gap-2">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <ol
        className="grid w-full max-w-[15rem] gap-px rounded-sm border bg-border p-px"
        style={{ gridTemplateColumns: `repeat(${COLUMNS}, minmax(0, 1fr))`, aspectRatio: "210 / 297" }}
        aria-label={title}
        data-testid="sheet-preview"
      >
        {plan.map((state, slot) => (
          <li
            key={slot}
            data-state={state}
            title={t(`preview.cell.${state}`)}
            className={
              state === "sticker"
                ? "flex items-center justify-center bg-primary text-[0.6rem] text-primary-foreground"
                : state === "skipped"
                  ? "flex items-center justify-center bg-muted text-[0.6rem] text-muted-foreground line-through"
                  : "bg-background"
            }
          >
            <span className="sr-only">{t(`preview.cell.${state}`)}</span>
            <span aria-hidden="true">{state === "sticker" ? "QR" : state === "skipped" ? "×" : ""}</span>
          </li>
        ))}
      </ol>
      <ul className="flex flex-wrap gap-3 text-xs text-muted-foreground" aria-hidden="true">
        <li>
          <span className="mr-1 inline-block size-3 rounded-sm bg-muted align-middle" />
          {t("preview.cell.skipped")}
        </li>
        <li>
          <span className="mr-1 inline-block size-3 rounded-sm bg-primary align-middle" />
          {t("preview.cell.sticker")}
        </li>
        <li>
          <span className="mr-1 inline-block size-3 rounded-sm border bg-background align-middle" />
          {t("preview.cell.empty")}
        </li>
      </ul>
    </figure>
  );
}

/** Starting row (1-7) and column (1-3) selects, after the label stock the layout is made for (decision 053). */
export function StartFields({ start, idPrefix }: { start: StartCell; idPrefix: string }) {
  const { t, i18n } = useTranslation("printing");
  const mm = numberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <fieldset className="grid min-w-0 gap-3">
      <legend className="mb-1 text-sm font-medium">{t("start.legend")}</legend>
      <p className="text-sm" data-testid="sheet-stock">
        {t("start.stock", { labels: LABELS_PER_SHEET, width: mm.format(LABEL_WIDTH_MM), height: mm.format(LABEL_HEIGHT_MM) })}
      </p>
      <p className="text-sm text-muted-foreground">{t("start.hint")}</p>
      <div className="flex flex-wrap gap-4">
        <label className="grid gap-1 text-sm" htmlFor={`${idPrefix}-row`}>
          {t("start.row")}
          <select id={`${idPrefix}-row`} name="startRow" defaultValue={String(start.row)} className="ui-control w-24">
            <Options values={[1, 2, 3, 4, 5, 6, 7]} />
          </select>
        </label>
        <label className="grid gap-1 text-sm" htmlFor={`${idPrefix}-column`}>
          {t("start.column")}
          <select id={`${idPrefix}-column`} name="startColumn" defaultValue={String(start.column)} className="ui-control w-24">
            <Options values={[1, 2, 3]} />
          </select>
        </label>
      </div>
    </fieldset>
  );
}
