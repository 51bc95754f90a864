import { data } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonVariants } from "~/components/ui/button";

export function loader() {
  return data({}, { status: 403 });
}

export default function Forbidden() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-5xl font-bold text-primary">403</p>
      <h1 className="text-2xl font-semibold">{t("forbidden.title")}</h1>
      <p className="text-muted-foreground">{t("forbidden.text")}</p>
      <Link to="/" className={buttonVariants()}>
        {t("notFound.home")}
      </Link>
    </main>
  );
}
