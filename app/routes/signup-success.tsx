import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PublicPage } from "~/components/onboarding/public-page";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { guard } from "~/modules/auth/guard.server";
import { clearDraft, readDraft } from "~/modules/onboarding/draft.server";

/** /signup/success: the registration is done; the activation link is on its way. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request, context);
  const { sentTo } = await readDraft(request);
  return data({ email: sentTo ?? null }, { headers: sentTo ? { "Set-Cookie": await clearDraft() } : undefined });
}

export default function SignupSuccess() {
  const { t } = useTranslation("onboarding");
  const { email } = useLoaderData<typeof loader>();
  return (
    <PublicPage title={t("success.title")}>
      <div className="grid gap-4">
        <Alert variant="success">{email ? t("success.text", { email }) : t("success.textGeneric")}</Alert>
        <p className="text-sm text-muted-foreground">{t("success.spam")}</p>
        <Link to="/login" className={buttonVariants({ className: "w-full" })}>
          {t("success.login")}
        </Link>
      </div>
    </PublicPage>
  );
}
