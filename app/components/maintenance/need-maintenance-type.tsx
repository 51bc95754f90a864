import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Why a plan cannot be added yet (the entity has no maintenance type), with the way to add one. */
export function NeedMaintenanceType() {
  const { t } = useTranslation("maintenance");
  return (
    <p className="text-sm text-muted-foreground">
      {t("plans.needType")}{" "}
      <Link to="/add-maintenance-type" className="font-medium text-primary underline-offset-4 hover:underline">
        {t("types.add")}
      </Link>
    </p>
  );
}
