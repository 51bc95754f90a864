import type { CSSProperties, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "~/components/shell/language-switch";
import { brandColors } from "~/lib/contrast";
import { cn } from "~/lib/utils";
import { isWebUrl } from "./report-fields";

/**
 * The occupier's pages (/report/{identifier}, /report/status/{token}): a header band in
 * the entity's colours with its logo and name and the language switch, on a page narrow enough for
 * any phone. No script: links and plain forms only.
 */
export interface ReportBranding {
  name: string;
  logoUrl: string | null;
  color: string;
  textColor: string;
}

export function brandStyle(branding: Pick<ReportBranding, "color" | "textColor"> | null): CSSProperties | undefined {
  if (!branding) return undefined;
  const colors = brandColors(branding.color, branding.textColor);
  return {
    ["--brand" as string]: colors.background,
    ["--brand-foreground" as string]: colors.foreground,
    ["--brand-muted-foreground" as string]: colors.muted,
    ["--brand-hover" as string]: colors.hover,
  };
}

export function ReportShell({ branding, children }: { branding: ReportBranding | null; children: ReactNode }) {
  const { t } = useTranslation("report");
  return (
    <div className="flex min-h-screen flex-col bg-muted/40" style={brandStyle(branding)}>
      <header className="bg-primary text-primary-foreground">
        <div className="mx-auto flex w-full max-w-xl items-center gap-3 px-4 py-3">
          {branding?.logoUrl ? (
            <img src={branding.logoUrl} alt="" width={44} height={44} className="size-11 shrink-0 rounded-md bg-white object-contain" />
          ) : null}
          <p className="min-w-0 flex-1 truncate text-lg font-semibold">{branding?.name ?? t("common:app.name")}</p>
          <LanguageSwitch tone="brand" className="shrink-0" />
        </div>
      </header>
      <main className="mx-auto grid w-full max-w-xl flex-1 content-start gap-5 px-4 py-5">{children}</main>
    </div>
  );
}

export function Panel({ title, children, className, titleId }: { title?: ReactNode; children: ReactNode; className?: string; titleId?: string }) {
  return (
    <section className={cn("grid gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-sm", className)} aria-labelledby={title ? titleId : undefined}>
      {title ? (
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
      ) : null}
      {children}
    </section>
  );
}

/** Labelled values in two columns (label, value), as a description list. */
export function Details({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="break-words font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface PlaceView {
  facilityName: string;
  buildingName: string;
  roomName: string;
  floor: string;
  equipmentItem: { name: string; internalReference: string | null } | null;
}

/** Where the sticker is: the item (when it is on one), the room, floor, building and site. */
export function PlaceSummary({ place }: { place: PlaceView }) {
  const { t } = useTranslation("report");
  const rows: [string, string][] = [
    ...(place.equipmentItem
      ? [[t("page.equipment"), place.equipmentItem.internalReference ? `${place.equipmentItem.name} (${place.equipmentItem.internalReference})` : place.equipmentItem.name] as [string, string]]
      : []),
    [t("page.room"), place.roomName],
    [t("page.floor"), place.floor],
    [t("page.building"), place.buildingName],
    [t("page.facility"), place.facilityName],
  ];
  return (
    <Panel title={t("page.where")} titleId="report-where">
      <Details rows={rows} />
    </Panel>
  );
}

/** The room's links as large buttons (same tab; only web addresses). */
export function RoomLinks({ links }: { links: { type: number; url: string }[] }) {
  const { t } = useTranslation("report");
  const shown = links.filter((link) => isWebUrl(link.url));
  if (!shown.length) return null;
  return (
    <Panel title={t("page.links")} titleId="report-links">
      <ul className="grid grid-cols-2 gap-2">
        {shown.map((link, index) => (
          <li key={`${index}-${link.url}`}>
            <a
              href={link.url}
              rel="noopener noreferrer"
              className="flex min-h-12 items-center justify-center rounded-md border bg-background px-3 py-2 text-center text-sm font-semibold hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2"
            >
              {t(`rooms:linkTypes.${link.type}`)}
            </a>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/** The incident types that apply here, as large links to their form. */
export function TypeChoices({ types, hrefOf }: { types: { id: number; name: string }[]; hrefOf: (id: number) => string }) {
  const { t } = useTranslation("report");
  return (
    <Panel title={t("page.whatIsWrong")} titleId="report-types">
      {types.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("page.noTypes")}</p>
      ) : (
        <ul className="grid gap-2">
          {types.map((type) => (
            <li key={type.id}>
              <a
                href={hrefOf(type.id)}
                className="flex min-h-14 items-center justify-between gap-3 rounded-md bg-primary px-4 py-3 text-base font-semibold text-primary-foreground hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2"
              >
                <span className="min-w-0 break-words">{type.name}</span>
                <span aria-hidden="true">→</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** The friendly page for an unknown, archived or malformed address: nothing about any entity. */
export function ReportNotFound({ title, text }: { title: string; text: string }) {
  return (
    <ReportShell branding={null}>
      <Panel>
        <h1 className="text-xl font-semibold">{title}</h1>
        <p className="text-sm text-muted-foreground">{text}</p>
      </Panel>
    </ReportShell>
  );
}
