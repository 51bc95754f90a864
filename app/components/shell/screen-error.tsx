import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonVariants } from "~/components/ui/button";

/**
 * The error boundary of a signed-in screen: rendered inside the app layout, so the menu and header
 * stay. A 404 names what was not found ("Facility not found", from the service's message key); any
 * other error is "Oups... Something happened". Screens export it as their `ErrorBoundary`.
 */
export function ScreenErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const data = isRouteErrorResponse(error) ? (error.data as { messageKey?: unknown } | null) : null;
  const messageKey = typeof data?.messageKey === "string" ? data.messageKey : "notFound.title";
  return (
    <section className="mx-auto grid max-w-xl gap-4 py-10 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">{notFound ? t(messageKey) : t("errors.oups")}</h1>
      <p className="text-muted-foreground">{notFound ? t("notFound.text") : t("errors.tryAgain")}</p>
      <div>
        <Link to="/" className={buttonVariants({ variant: "outline" })}>
          {t("notFound.home")}
        </Link>
      </div>
    </section>
  );
}
