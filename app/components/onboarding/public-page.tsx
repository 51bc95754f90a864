import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "~/components/shell/language-switch";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { cn } from "~/lib/utils";

/**
 * The frame of the visitor pages of this area (sign-up, its success and verification pages,
 * password reset): the product name, a card with the page's title, and the language switch.
 */
export function PublicPage({
  title,
  subtitle,
  children,
  wide,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  /** The sign-up form needs more room than a message. */
  wide?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-muted px-3 py-6 sm:p-6">
      <p className="text-xl font-bold tracking-tight text-primary">{t("common:app.name")}</p>
      <Card className={cn("w-full", wide ? "max-w-2xl" : "max-w-md")}>
        <CardHeader>
          <CardTitle as="h1" className="text-2xl">
            {title}
          </CardTitle>
          {subtitle ? <div className="text-sm text-muted-foreground">{subtitle}</div> : null}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
      <LanguageSwitch />
    </main>
  );
}
