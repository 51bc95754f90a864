import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { DataTable, listColumns, type ListTableProps, listTexts } from "~/components/lists/data-table";
import { cellLinkClass, numberColumnClass } from "~/components/lists/styles";
import { Badge } from "~/components/ui/badge";
import type { IncidentTypeRow } from "~/modules/incident-types/queries.server";

const column = listColumns<IncidentTypeRow>();

/** How many names of each kind a row shows before "+ N more". */
const SHOWN = 3;

/** The incident types of the entity: the name links to the type's form. */
export function IncidentTypesTable(list: ListTableProps<IncidentTypeRow>) {
  const { t } = useTranslation("incidentTypes");
  const columns = useMemo(() => {
    const names = (list: { name: string }[]) => {
      const shown = list.slice(0, SHOWN).map((x) => x.name).join(", ");
      return list.length > SHOWN ? t("list.more", { names: shown, count: list.length - SHOWN }) : shown;
    };
    return [
      column.accessor("name", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: (c) => {
          const row = c.row.original;
          return (
            <span className="inline-flex flex-wrap items-center gap-2">
              <a href={`/update-incident-type/${row.id}`} className={cellLinkClass}>
                {row.name}
              </a>
              {row.untranslated.length ? (
                <Badge variant="warning" title={t("list.untranslatedTitle", { languages: row.untranslated.map((l) => t(`languages.${l}`)).join(", ") })}>
                  {t("list.untranslatedBadge", { languages: row.untranslated.map((l) => l.toUpperCase()).join(", ") })}
                </Badge>
              ) : null}
            </span>
          );
        },
      }),
      column.accessor("defaultPriority", {
        header: t("columns.priority"),
        meta: { sortKey: "priority", className: "whitespace-nowrap" },
        cell: (c) => t(`priority.${c.getValue()}`),
      }),
      column.accessor("status", {
        header: t("columns.status"),
        meta: { sortKey: "status" },
        cell: (c) => <Badge variant={c.getValue() === 1 ? "success" : "outline"}>{t(`status.${c.getValue()}`)}</Badge>,
      }),
      column.display({
        id: "where",
        header: t("columns.where"),
        cell: (c) => {
          const row = c.row.original;
          if (row.appliesEverywhere) return <span>{t("list.everywhere")}</span>;
          const parts: [string, { name: string }[]][] = [
            [t("list.roomTypes"), row.roomTypes],
            [t("list.equipment"), row.equipmentTypes],
            [t("list.rooms"), row.rooms],
          ];
          const shown = parts.filter(([, list]) => list.length);
          if (!shown.length) return <span className="text-muted-foreground">{t("list.nowhere")}</span>;
          return (
            <ul className="grid max-w-sm gap-0.5 text-sm">
              {shown.map(([label, list]) => (
                <li key={label}>
                  <span className="text-muted-foreground">{label}: </span>
                  {names(list)}
                </li>
              ))}
            </ul>
          );
        },
      }),
      column.accessor("openIncidents", {
        header: t("columns.openIncidents"),
        meta: { className: numberColumnClass },
      }),
    ];
  }, [t]);
  return (
    <DataTable columns={columns} {...list} {...listTexts(t, "list")} />
  );
}
