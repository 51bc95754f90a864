import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { type HubCard, HubCards } from "~/components/administration/hub-cards";
import { screenLoader } from "~/http/screen.server";
import { administrationCounts, AUDIT_COUNT_DAYS } from "~/modules/administration/queries.server";

/**
 * /administration (decision 057): the hub of the administration menu. Users and Import/Export for managers
 * and administrators; API tokens, webhooks, service levels, hourly rates and the audit history for administrators only (the cards of
 * what a manager may not open are left out). Each card has its count and links to its screen.
 */
export const loader = screenLoader(async ({ ctx }) => ({ counts: await administrationCounts(ctx), auditDays: AUDIT_COUNT_DAYS }));

export default function Administration() {
  const { t } = useTranslation("administration");
  const { counts, auditDays } = useLoaderData<typeof loader>();
  const cards: HubCard[] = [
    { key: "users", to: "/users", title: t("cards.users.title"), description: t("cards.users.description"), count: t("cards.users.count", { count: counts.users }) },
    { key: "import-data", to: "/import-data", title: t("cards.importData.title"), description: t("cards.importData.description"), count: t("cards.importData.count", { count: counts.dataJobs }) },
  ];
  if (counts.webhooks !== null) {
    cards.push({
      key: "api-tokens",
      to: "/administration/api-tokens",
      title: t("cards.apiTokens.title"),
      description: t("cards.apiTokens.description"),
      count: counts.apiTokens === null ? null : t("cards.apiTokens.count", { count: counts.apiTokens }),
    });
    cards.push({ key: "webhooks", to: "/administration/webhooks", title: t("cards.webhooks.title"), description: t("cards.webhooks.description"), count: t("cards.webhooks.count", { count: counts.webhooks }) });
  }
  if (counts.serviceLevels !== null) {
    cards.push({
      key: "service-levels",
      to: "/administration/service-levels",
      title: t("cards.serviceLevels.title"),
      description: t("cards.serviceLevels.description"),
      count: t("cards.serviceLevels.count", { count: counts.serviceLevels }),
    });
  }
  if (counts.rates !== null) {
    cards.push({ key: "rates", to: "/administration/rates", title: t("cards.rates.title"), description: t("cards.rates.description"), count: t("cards.rates.count", { count: counts.rates }) });
  }
  if (counts.auditRecent !== null) {
    cards.push({
      key: "audit",
      to: "/administration/audit",
      title: t("cards.audit.title"),
      description: t("cards.audit.description"),
      count: t("cards.audit.count", { count: counts.auditRecent, days: auditDays }),
    });
  }
  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.administration")}</h1>
        <p className="text-sm text-muted-foreground">{t("intro")}</p>
      </div>
      <HubCards label={t("common:screens.administration")} cards={cards} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";
