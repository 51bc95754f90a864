import type { LoaderFunctionArgs } from "@remix-run/node";
import { useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { guard } from "~/modules/auth/guard.server";

/** Placeholder for a screen a later issue builds; its route and guard already exist. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request, context);
  return null;
}

export default function ComingSoon() {
  const { t } = useTranslation();
  const matches = useMatches();
  const id = matches[matches.length - 1]?.id ?? "";
  return (
    <section className="space-y-2">
      <h1 className="text-2xl font-semibold">{t(`screens.${id}`, { defaultValue: id })}</h1>
      <p className="text-muted-foreground">{t("comingSoon")}</p>
    </section>
  );
}
