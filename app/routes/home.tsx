import type { MetaFunction } from "@remix-run/node";
import { useTranslation } from "react-i18next";

export const meta: MetaFunction = () => [{ title: "Caretaker" }];

export default function Home() {
  const { t } = useTranslation();
  return (
    <section className="space-y-2">
      <h1 className="text-2xl font-semibold">{t("app.name")}</h1>
      <p className="text-muted-foreground">{t("app.tagline")}</p>
    </section>
  );
}
