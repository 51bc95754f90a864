import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PublicPage } from "~/components/onboarding/public-page";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { isDomainError } from "~/lib/errors";
import { guard } from "~/modules/auth/guard.server";
import { verifyEmail } from "~/modules/onboarding/service.server";
import { onboardingDeps } from "~/http/deps.server";

/**
 * /signup/verify?token=…: the link of the verification mail. A valid token activates the
 * administrator (once); anything else shows "Invalid token".
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await guard(request, context);
  const token = new URL(request.url).searchParams.get("token");
  try {
    const { email } = await verifyEmail(onboardingDeps(context), { token: token ?? "" });
    return data({ activated: true as const, email });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return data({ activated: false as const, email: null }, { status: 400 });
  }
}

export default function SignupVerify() {
  const { t } = useTranslation("onboarding");
  const result = useLoaderData<typeof loader>();
  return (
    <PublicPage title={t("verify.title")}>
      {result.activated ? (
        <div className="grid gap-4">
          <Alert variant="success">{t("verify.success")}</Alert>
          <Link to="/login" className={buttonVariants({ className: "w-full" })}>
            {t("verify.login")}
          </Link>
        </div>
      ) : (
        <div className="grid gap-4">
          <Alert variant="destructive">
            <p className="font-semibold">{t("reset.invalidToken")}</p>
            <p>{t("verify.invalid")}</p>
          </Alert>
          <p className="text-sm text-muted-foreground">{t("verify.resetHint")}</p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Link to="/login" className={buttonVariants({ className: "flex-1" })}>
              {t("verify.login")}
            </Link>
            <Link to="/password/reset" className={buttonVariants({ variant: "outline", className: "flex-1" })}>
              {t("reset.requestNew")}
            </Link>
          </div>
        </div>
      )}
    </PublicPage>
  );
}
