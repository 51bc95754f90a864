import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonVariants } from "~/components/ui/button";

/** A whole page that answers an address with an HTTP status (403, 404): the status, what it means, and a way home. */
export function StatusPage({ status, texts }: { status: number; texts: "forbidden" | "notFound" }) {
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-5xl font-bold text-primary">{status}</p>
      <h1 className="text-2xl font-semibold">{t(`${texts}.title`)}</h1>
      <p className="text-muted-foreground">{t(`${texts}.text`)}</p>
      <Link to="/" className={buttonVariants()}>
        {t("notFound.home")}
      </Link>
    </main>
  );
}
