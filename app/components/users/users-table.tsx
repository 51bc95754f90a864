import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { linkCell } from "~/components/lists/cells";
import { roleReachesWholeEntity } from "~/core/actor";
import { DataTable, listColumns } from "~/components/lists/data-table";
import type { ListQuery, Page } from "~/lib/list-query";
import type { UserRow } from "~/modules/users/queries.server";
import { UserStatusBadge } from "./user-status";
import { useDates } from "~/lib/use-dates";

const column = listColumns<UserRow>();

/** How many linked facilities and buildings a row names before "+ N more". */
const LINKS_SHOWN = 2;

/** The users of the entity: the name links to the user's page. */
export function UsersTable({ page, query, filtered }: { page: Page<UserRow>; query: ListQuery; filtered: boolean }) {
  const { t } = useTranslation("users");
  const dates = useDates();
  const columns = useMemo(() => {
    return [
      column.accessor("name", {
        header: t("columns.name"),
        meta: { sortKey: "name" },
        cell: linkCell((user) => `/update-user/${user.id}`, (user) => t("list.open", { name: `${user.name} ${user.surname}` })),
      }),
      column.accessor("surname", { header: t("columns.surname"), meta: { sortKey: "surname" } }),
      column.accessor("email", {
        header: t("columns.email"),
        meta: { sortKey: "email" },
        cell: (c) => <span className="whitespace-nowrap">{c.getValue()}</span>,
      }),
      column.accessor("role", { header: t("columns.role"), meta: { sortKey: "role" }, cell: (c) => t(`shell:roles.${c.getValue()}`) }),
      column.accessor("status", { header: t("columns.status"), meta: { sortKey: "status" }, cell: (c) => <UserStatusBadge status={c.getValue()} /> }),
      column.display({
        id: "links",
        header: t("columns.links"),
        cell: (c) => {
          const user = c.row.original;
          if (roleReachesWholeEntity(user.role)) return <span className="text-muted-foreground">{t("list.wholeEntity")}</span>;
          const names = [...user.linkedFacilities.map((f) => f.name), ...user.linkedBuildings.map((b) => t("common:picker.buildingOption", { building: b.name, facility: b.facilityName }))];
          if (!names.length) return <span className="text-muted-foreground">{t("list.noLinks")}</span>;
          const shown = names.slice(0, LINKS_SHOWN).join(", ");
          const more = names.length - LINKS_SHOWN;
          return (
            <span className="line-clamp-2 max-w-xs text-sm" title={names.join(", ")}>
              {more > 0 ? t("list.linksMore", { names: shown, count: more }) : shown}
            </span>
          );
        },
      }),
      column.accessor("lastLoginAt", {
        header: t("columns.lastLogin"),
        meta: { sortKey: "lastLogin", className: "whitespace-nowrap" },
        cell: (c) => {
          const value = c.getValue();
          return value ? <time dateTime={value}>{dates.dateTime(value)}</time> : <span className="text-muted-foreground">{t("list.never")}</span>;
        },
      }),
    ];
  }, [t, dates]);
  return (
    <DataTable
      columns={columns}
      page={page}
      query={query}
      filtered={filtered}
      caption={t("list.caption")}
      emptyText={t("list.empty")}
      noMatchText={t("list.noMatch")}
    />
  );
}
