import { useTranslation } from "react-i18next";
import { TabLink, Tabs } from "~/components/ui/tabs";

/** "Rooms" (the Rooms tab of /facilities) and "Room Types" (/room-type): SPEC.md section 2, Rooms with tab Room Types. */
export function RoomTabs({ active }: { active: "rooms" | "roomTypes" }) {
  const { t } = useTranslation("rooms");
  return (
    <Tabs label={t("tabs.label")}>
      <TabLink to="/facilities?tab=rooms" active={active === "rooms"}>
        {t("tabs.rooms")}
      </TabLink>
      <TabLink to="/room-type" active={active === "roomTypes"}>
        {t("tabs.roomTypes")}
      </TabLink>
    </Tabs>
  );
}
