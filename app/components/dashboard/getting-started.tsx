import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

export interface GettingStartedItem {
  key: string;
  href: string;
  done: boolean;
}

/**
 * The getting-started path of an entity that lacks part of what a first room and its stickers need
 * (modules/dashboard/getting-started.server.ts): each step says whether it is done and links to the
 * screen that adds it.
 */
export function GettingStarted({ steps }: { steps: GettingStartedItem[] }) {
  const { t } = useTranslation("dashboard");
  const done = steps.filter((s) => s.done).length;
  return (
    <Card aria-labelledby="getting-started-title" role="region" className="print:hidden">
      <CardHeader>
        <CardTitle as="h2" id="getting-started-title">{t("gettingStarted.title")}</CardTitle>
        <CardDescription>{t("gettingStarted.intro", { done, total: steps.length })}</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-2">
          {steps.map((step, i) => (
            <li key={step.key} className="flex items-baseline gap-2">
              <span aria-hidden="true" className={step.done ? "text-primary" : "text-muted-foreground"}>
                {step.done ? "✓" : `${i + 1}.`}
              </span>
              <Link to={step.href} className="font-medium text-primary underline-offset-4 hover:underline">
                {t(`gettingStarted.steps.${step.key}`)}
              </Link>
              <span className="text-sm text-muted-foreground">{step.done ? t("gettingStarted.done") : t("gettingStarted.todo")}</span>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
