import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckboxField } from "~/components/forms/form-parts";
import { type ChosenView, PrintTree, type PrintTreeView } from "~/components/printing/print-tree";
import { SheetPreview, StartFields } from "~/components/printing/sheet-preview";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { TabLinks } from "~/components/ui/tabs";
import { supportedLngs } from "~/i18n";
import { redirectWithToast } from "~/http/form-action.server";
import { PRINT_ERROR_KEYS } from "~/http/printing.server";
import { screenAction, tabsLoader } from "~/http/screen.server";
import { dateFormats } from "~/lib/dates";
import { isDomainError } from "~/lib/errors";
import { sheetCount } from "~/modules/printing/layout";
import { listBuildingPrintRooms, listPrintTree, readStickerSettings, resolveSelection } from "~/modules/printing/queries.server";
import { BACKGROUND_THRESHOLD, LABEL_LINES, MAX_COPIES } from "~/modules/printing/constants";
import { printFormValues, SelectionSchema, StartSchema, StyleSchema } from "~/modules/printing/schema";
import { checkQrPrint, setPrintCalibration } from "~/modules/printing/service.server";
import type { ScreenArgs } from "~/http/screen.server";
import { Options } from "~/components/ui/options";

/**
 * /printing (managers and administrators): "QR codes" (default) and "Explanatory stickers"
 * (`?tab=stickers`). The QR tab is one GET form: the location tree with print states (choices travel
 * in the address, so browsing, filtering and the preview work without JavaScript), the style, the
 * starting cell and a preview of the first sheet; its print button posts the same fields here
 * (`intent=print`): a refused print re-renders the form (400) with the error and the choices; one that
 * passes goes on (307, same body) to /printing/qr-codes.pdf, which answers the PDF.
 * The calibration form posts here (`intent=calibration`).
 */

const safe = <T,>(schema: { safeParse(v: unknown): { success: boolean; data?: T } }, value: unknown, fallback: T): T => {
  const parsed = schema.safeParse(value);
  return parsed.success ? (parsed.data as T) : fallback;
};

/** The whole-number ids of a posted list (anything else dropped). */
const postedIds = (list: unknown): number[] => (Array.isArray(list) ? list.filter((v): v is number => typeof v === "number" && Number.isInteger(v) && v > 0 && v < 2 ** 31) : []);

function common({ ctx, url }: ScreenArgs) {
  const values = printFormValues(url.searchParams);
  const start = safe(StartSchema, values, { startRow: 1, startColumn: 1 });
  const errors = url.searchParams.getAll("err").filter((k) => PRINT_ERROR_KEYS.has(k));
  return { values, start: { row: start.startRow, column: start.startColumn }, errors, ctx };
}

async function calibration(args: ScreenArgs) {
  const settings = await readStickerSettings(args.ctx);
  return { settings: { offsetX: settings.offset.x, offsetY: settings.offset.y, hasLogo: Boolean(settings.logoFileId), stickerFileId: settings.explanatoryStickerFileId, templateColor: settings.templateColor, templateTextColor: settings.templateTextColor } };
}

export const loader = tabsLoader("qr", {
  qr: async (args) => {
    const { values, start, errors, ctx } = common(args);
    const selection = safe(SelectionSchema, values, { facilityIds: [], buildingIds: [], roomIds: [], equipmentItemIds: [], notPrintedOnly: false });
    const styled = args.url.searchParams.get("styled") === "1";
    const style = safe(StyleSchema, values, { colors: "entity", background: null, textColor: null, logo: false, lines: [], language: null });
    const openId = Number(args.url.searchParams.get("open"));
    const dates = dateFormats(ctx.locale, ctx.timeZone);
    const facilities = await listPrintTree(ctx);
    let open: PrintTreeView["open"] = null;
    if (Number.isInteger(openId) && openId > 0 && openId < 2 ** 31) {
      try {
        const building = await listBuildingPrintRooms(ctx, openId, { notPrintedOnly: selection.notPrintedOnly });
        const when = (d: Date | null) => (d ? dates.date(d) : null);
        open = {
          ...building,
          rooms: building.rooms.map((r) => ({ ...r, lastPrinted: when(r.lastPrintedAt), lastPrintedAt: undefined, items: r.items.map((i) => ({ ...i, lastPrinted: when(i.lastPrintedAt), lastPrintedAt: undefined })) })),
        };
      } catch (error) {
        if (!isDomainError(error) || error.status !== 404) throw error;
      }
    }
    const chosen = selection.facilityIds.length + selection.buildingIds.length + selection.roomIds.length + selection.equipmentItemIds.length;
    let count = 0;
    if (chosen) {
      try {
        count = (await resolveSelection(ctx, selection)).length;
      } catch (error) {
        if (!isDomainError(error) || error.status !== 404) throw error;
        errors.push("printing:errors.notFound");
      }
    }
    const { settings } = await calibration(args);
    return {
      tree: { facilities, open } satisfies PrintTreeView,
      selection,
      style: styled ? style : { ...style, lines: [...LABEL_LINES], logo: settings.hasLogo },
      start,
      count,
      sheets: sheetCount(count, start),
      errors: [...new Set(errors)],
      settings,
      copies: "21",
      locale: ctx.locale,
    };
  },
  stickers: async (args) => {
    const { values, start, errors } = common(args);
    // The copies asked for are shown as typed (a refused print comes back with them); the preview needs a valid number.
    const typed = args.url.searchParams.get("copies")?.slice(0, 12) ?? "21";
    const count = typeof values.copies === "number" && Number.isInteger(values.copies) && values.copies >= 1 && values.copies <= MAX_COPIES ? values.copies : 0;
    const { settings } = await calibration(args);
    return { tree: null, selection: null, style: null, start, count, sheets: sheetCount(count, start), errors, settings, copies: typed, locale: args.ctx.locale };
  },
});

export const action = screenAction({
  intents: {
    // The "Print QR codes" button: checked here first, so that a refusal answers 400 with the form
    // re-rendered and the choices kept (never in an address: thousands of ids would not fit). A print
    // that passes is sent on to /printing/qr-codes.pdf with the same posted body (307 keeps it).
    print: async ({ ctx, formData }) => {
      const values = printFormValues(formData);
      try {
        await checkQrPrint(ctx, values);
      } catch (error) {
        if (!isDomainError(error) || (error.status !== 400 && error.status !== 404)) throw error;
        const keys = [error.messageKey, ...Object.values(error.fieldErrors ?? {}).flat()].filter((k) => PRINT_ERROR_KEYS.has(k));
        const refused = {
          errors: keys.length ? [...new Set(keys)] : ["common:validation.invalid"],
          // As posted, even past the limit that refused it: the person unticks some rather than starting again.
          selection: {
            facilityIds: postedIds(values.facilityIds),
            buildingIds: postedIds(values.buildingIds),
            roomIds: postedIds(values.roomIds),
            equipmentItemIds: postedIds(values.equipmentItemIds),
            notPrintedOnly: values.notPrintedOnly === "on" || values.notPrintedOnly === "true",
          },
        };
        return data({ refused }, { status: 400 });
      }
      return redirect("/printing/qr-codes.pdf", 307);
    },
    calibration: async ({ ctx, formData, url }) => {
      try {
        await setPrintCalibration(ctx, printFormValues(formData));
      } catch (error) {
        if (isDomainError(error) && error.status === 400) return data({ calibrationErrors: Object.values(error.fieldErrors ?? {}).flat() }, { status: 400 });
        throw error;
      }
      return redirectWithToast(`/printing${url.search}`, "printing:toast.calibrationSaved");
    },
  },
});

export default function Printing() {
  const { t } = useTranslation(["printing", "common"]);
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const calibrationErrors = actionData && "calibrationErrors" in actionData ? actionData.calibrationErrors : [];
  // A refused print: its errors, and the places as they were posted.
  const refused = actionData && "refused" in actionData ? actionData.refused : null;
  const errors = refused ? [...new Set([...data.errors, ...refused.errors])] : data.errors;
  const selection = refused && data.selection ? refused.selection : data.selection;
  const start = data.start;
  return (
    <div className="grid min-w-0 gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.printing")}</h1>
      <TabLinks
        label={t("tabs.label")}
        active={data.tab}
        preventScrollReset
        tabs={[
          { key: "qr", to: "/printing", label: t("tabs.qrCodes") },
          { key: "stickers", to: "/printing?tab=stickers", label: t("tabs.stickers") },
        ]}
      />
      {errors.length ? (
        <div role="alert" className="rounded-md border border-destructive/50 p-3 text-sm text-destructive" data-testid="print-errors">
          <ul className="grid gap-1">
            {errors.map((key) => (
              <li key={key}>{t(key)}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {data.tab === "qr" && data.tree && selection && data.style ? (
        <form method="get" action="/printing" className="grid min-w-0 gap-6" id="print-qr-form">
          <input type="hidden" name="styled" value="1" />
          <PrintTree tree={data.tree} chosen={selection as ChosenView} notPrintedOnly={selection.notPrintedOnly} />

          <fieldset className="grid min-w-0 gap-3">
            <legend className="mb-1 text-base font-semibold">{t("style.legend")}</legend>
            <div className="grid gap-2" role="radiogroup" aria-label={t("style.colors")}>
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" name="colors" value="entity" defaultChecked={data.style.colors !== "custom"} /> {t("style.entityColors")}
                <span className="inline-block size-4 rounded-sm border" style={{ background: data.settings.templateColor }} aria-hidden="true" />
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" name="colors" value="custom" defaultChecked={data.style.colors === "custom"} /> {t("style.customColors")}
              </label>
              <div className="flex flex-wrap gap-4 pl-6">
                <label className="flex items-center gap-2 text-sm">
                  <input type="color" name="background" defaultValue={data.style.background ?? data.settings.templateColor} className="h-8 w-10" />
                  {t("style.background")}
                </label>
                <label className="flex items-center gap-2 text-sm">
                  <input type="color" name="textColor" defaultValue={data.style.textColor ?? data.settings.templateTextColor} className="h-8 w-10" />
                  {t("style.textColor")}
                </label>
              </div>
            </div>
            {data.settings.hasLogo ? <CheckboxField id="print-logo" name="logo" value="on" defaultChecked={data.style.logo} label={t("style.logo")} /> : null}
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">{t("style.lines")}</legend>
              <div className="flex flex-wrap gap-4">
                {LABEL_LINES.map((line) => (
                  <CheckboxField key={line} id={`print-line-${line}`} name="lines" value={line} defaultChecked={data.style!.lines.includes(line)} label={t(`style.line.${line}`)} />
                ))}
              </div>
            </fieldset>
            <label className="grid max-w-xs gap-1 text-sm" htmlFor="print-language">
              {t("style.language")}
              <select id="print-language" name="language" defaultValue={data.style.language ?? data.locale} className="ui-control">
                <Options values={supportedLngs} label={(lng) => t(`common:language.${lng}`)} />
              </select>
            </label>
          </fieldset>

          <StartFields start={start} idPrefix="print-qr" />

          <section className="grid gap-3" aria-labelledby="print-preview">
            <h2 id="print-preview" className="sr-only">
              {t("preview.title")}
            </h2>
            <p className="text-sm" data-testid="print-summary">
              {t("preview.summary", { count: data.count, sheets: data.sheets })}
            </p>
            <SheetPreview count={data.count} start={start} title={t("preview.title")} />
            {data.count > BACKGROUND_THRESHOLD ? <p className="text-sm text-muted-foreground">{t("preview.background", { threshold: BACKGROUND_THRESHOLD })}</p> : null}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="outline" name="open" value={data.tree.open ? String(data.tree.open.id) : ""}>
                {t("preview.update")}
              </Button>
              <Button type="submit" formMethod="post" formAction="/printing" name="intent" value="print" data-testid="print-qr">
                {t("actions.printQr")}
              </Button>
            </div>
          </section>
        </form>
      ) : null}

      {data.tab === "stickers" ? (
        <form method="post" action="/printing/explanatory-stickers.pdf" className="grid min-w-0 gap-6" id="print-stickers-form">
          <p className="text-sm text-muted-foreground">{t("stickers.intro")}</p>
          {data.settings.stickerFileId ? (
            <img src={`/files/${data.settings.stickerFileId}`} alt={t("stickers.image")} className="max-h-40 w-auto self-start rounded border" />
          ) : (
            <p className="text-sm">
              {t("stickers.none")}{" "}
              <Link to="/settings?tab=entity" className="font-medium text-primary underline-offset-4 hover:underline">
                {t("stickers.settings")}
              </Link>
            </p>
          )}
          <label className="grid max-w-xs gap-1 text-sm" htmlFor="print-copies">
            {t("stickers.copies")}
            <Input id="print-copies" type="number" name="copies" min={1} max={MAX_COPIES} step={1} defaultValue={data.copies} required />
          </label>
          <StartFields start={start} idPrefix="print-stickers" />
          <SheetPreview count={data.count} start={start} title={t("preview.title")} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="outline" formMethod="get" formAction="/printing" name="tab" value="stickers" formNoValidate>
              {t("preview.update")}
            </Button>
            <Button type="submit" data-testid="print-stickers">
              {t("actions.printStickers")}
            </Button>
          </div>
        </form>
      ) : null}

      <Form method="post" className="grid max-w-xl gap-3 rounded-md border p-4" aria-labelledby="print-calibration">
        <h2 id="print-calibration" className="text-base font-semibold">
          {t("calibration.legend")}
        </h2>
        <p className="text-sm text-muted-foreground">{t("calibration.hint")}</p>
        <div className="flex flex-wrap gap-4">
          <label className="grid gap-1 text-sm" htmlFor="print-offset-x">
            {t("calibration.offsetX")}
            <Input id="print-offset-x" type="number" name="offsetX" min={-10} max={10} step={0.1} defaultValue={data.settings.offsetX} className="w-28" />
          </label>
          <label className="grid gap-1 text-sm" htmlFor="print-offset-y">
            {t("calibration.offsetY")}
            <Input id="print-offset-y" type="number" name="offsetY" min={-10} max={10} step={0.1} defaultValue={data.settings.offsetY} className="w-28" />
          </label>
        </div>
        {calibrationErrors.length ? (
          <p role="alert" className="text-sm text-destructive">
            {calibrationErrors.map((k) => t(k)).join(" ")}
          </p>
        ) : null}
        <div>
          <Button type="submit" name="intent" value="calibration" variant="outline">
            {t("calibration.save")}
          </Button>
        </div>
      </Form>
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
