import { useTranslation } from "react-i18next";
import { TabLink, Tabs } from "~/components/ui/tabs";

/** The two tabs of the Import/Export Data screen (SPEC.md section 2): each is its own address. */
export function DataTabs({ active }: { active: "import" | "export" }) {
  const { t } = useTranslation();
  return (
    <Tabs label={t("dataTabs.label")}>
      <TabLink to="/import-data" active={active === "import"}>
        {t("dataTabs.import")}
      </TabLink>
      <TabLink to="/import-data/export" active={active === "export"}>
        {t("dataTabs.export")}
      </TabLink>
    </Tabs>
  );
}
