import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilterSelect, ListToolbar } from "~/components/lists/list-toolbar";
import { buttonVariants } from "~/components/ui/button";
import { UsersTable } from "~/components/users/users-table";
import { ROLE_VALUES, USER_STATUS_VALUES } from "~/db/enums";
import { screenLoader } from "~/http/screen.server";
import { intParam, parseListQuery } from "~/lib/list-query";
import { listUsers, USER_SORTS } from "~/modules/users/queries.server";

/**
 * /users: the people of the entity (managers and administrators only), searched by name, surname or
 * email, filtered by role and status, sorted and paged by the URL, so it works without JavaScript.
 */
export const loader = screenLoader(async ({ ctx, url: { searchParams: params } }) => {
  const query = parseListQuery(params, { sorts: USER_SORTS, defaultSort: "surname" });
  const role = ROLE_VALUES.find((value) => value === intParam(params, "role")) ?? null;
  const status = USER_STATUS_VALUES.find((value) => value === intParam(params, "status")) ?? null;
  return { query, role, status, users: await listUsers(ctx, query, { role, status }) };
});

export default function Users() {
  const { t } = useTranslation("users");
  const { query, role, status, users } = useLoaderData<typeof loader>();
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.users")}</h1>
      <ListToolbar
        q={query.q}
        filters={
          <>
            <FilterSelect
              name="role"
              label={t("list.filterRole")}
              allLabel={t("list.allRoles")}
              value={role}
              options={ROLE_VALUES.map((value) => ({ value, label: t(`shell:roles.${value}`) }))}
            />
            <FilterSelect
              name="status"
              label={t("list.filterStatus")}
              allLabel={t("list.allStatuses")}
              value={status}
              options={USER_STATUS_VALUES.map((value) => ({ value, label: t(`status.${value}`) }))}
            />
          </>
        }
        actions={
          <Link to="/add-user" className={buttonVariants()}>
            {t("list.add")}
          </Link>
        }
      />
      <UsersTable page={users} query={query} filtered={Boolean(query.q || role || status)} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
