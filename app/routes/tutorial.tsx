import { Link, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Icon, type IconName } from "~/components/shell/icons";
import { buttonVariants } from "~/components/ui/button";
import { dialogHref } from "~/components/ui/dialog";
import { cn } from "~/lib/utils";
import { can } from "~/core/actor";
import { screenLoader } from "~/http/screen.server";
import { HELP_AREAS, helpUrl, type HelpArea } from "~/modules/shell/help";
import type { loader as rootLoader } from "~/root";

/**
 * /tutorial, for every signed-in user: a getting-started page for the user's role. Managers and
 * administrators get the set-up steps in order, then the everyday areas; technicians get their
 * own work. Each area links to its screen and to its page on the help site.
 */
export const loader = screenLoader(({ context, ctx, user }) => {
  // The help site's page of each area, worked out here so that the page's script does not carry the help module.
  const base = context.runtime.config.HELP_BASE_URL ?? null;
  const help = Object.fromEntries(HELP_AREAS.map((area) => [area, helpUrl(base, area)])) as Record<HelpArea, string | null>;
  return { manager: can(ctx.actor, "open", "managerScreen"), role: user.role, help };
});

interface Area {
  key: string;
  icon: IconName;
  to: string;
  help: HelpArea;
}

const SETUP: Area[] = [
  { key: "entity", icon: "settings", to: "/settings", help: "settings" },
  { key: "facilities", icon: "facility", to: "/facilities", help: "facilities" },
  { key: "equipments", icon: "equipment", to: "/equipments", help: "equipments" },
  { key: "incidentTypes", icon: "incident", to: "/configuration?tab=incident-types", help: "incident-types" },
  { key: "users", icon: "administration", to: "/users", help: "users" },
  { key: "printing", icon: "qr", to: "/printing", help: "printing" },
];

const DAILY: Area[] = [
  { key: "incidents", icon: "incident", to: "/incidents", help: "incidents" },
  { key: "maintenance", icon: "maintenance", to: "/maintenances", help: "maintenance" },
  { key: "dashboard", icon: "dashboard", to: "/dashboard", help: "dashboard" },
  { key: "importExport", icon: "upDown", to: "/import-data", help: "import-export" },
  { key: "notifications", icon: "bell", to: "/notifications", help: "notifications" },
];

const TECHNICIAN: Area[] = [
  { key: "myIncidents", icon: "incident", to: "/incidents", help: "incidents" },
  { key: "tasks", icon: "calendar", to: "/task", help: "tasks" },
  { key: "notifications", icon: "bell", to: "/notifications", help: "notifications" },
  { key: "settings", icon: "settings", to: "/settings", help: "settings" },
];

export default function Tutorial() {
  const { t } = useTranslation("shell");
  const { manager, role, help } = useLoaderData<typeof loader>();
  const profile = useRouteLoaderData<typeof rootLoader>("root")?.profile;
  const location = useLocation();
  const siteHelp = help["getting-started"];

  return (
    <div className="grid gap-8">
      <section className="overflow-hidden rounded-xl border bg-card shadow-sm">
        <div className="grid gap-4 bg-gradient-to-br from-primary/10 via-primary/5 to-transparent p-6 sm:p-8">
          <span className="flex size-12 items-center justify-center rounded-xl bg-primary text-primary-foreground shadow-sm" aria-hidden="true">
            <Icon name="tutorial" className="size-6" />
          </span>
          <div className="grid gap-2">
            <p className="text-sm font-semibold uppercase tracking-wider text-primary">{t("tutorial.title")}</p>
            <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
              {t("tutorial.welcome", { name: profile?.name ?? "" })}
            </h1>
            <p className="text-sm text-muted-foreground">
              {t("tutorial.signedInAs", { role: t(`roles.${role}`), entity: profile?.entity.name ?? "" })}
            </p>
          </div>
          <p className="max-w-3xl text-base leading-relaxed">{manager ? t("tutorial.intro.manager") : t("tutorial.intro.technician")}</p>
          {siteHelp ? (
            <div>
              <a href={siteHelp} target="_blank" rel="noreferrer noopener" className={buttonVariants({ variant: "default" })}>
                <Icon name="help" />
                {t("tutorial.helpSite")}
                <Icon name="external" className="opacity-80" />
              </a>
            </div>
          ) : null}
        </div>
      </section>

      {manager ? (
        <>
          <section aria-labelledby="tutorial-setup" className="grid gap-4">
            <SectionTitle id="tutorial-setup" title={t("tutorial.setupTitle")} text={t("tutorial.setupText")} />
            <ol className="grid gap-3">
              {SETUP.map((area, index) => (
                <li key={area.key}>
                  <AreaCard area={area} help={help[area.help]} step={index + 1} />
                </li>
              ))}
            </ol>
          </section>
          <section aria-labelledby="tutorial-daily" className="grid gap-4">
            <SectionTitle id="tutorial-daily" title={t("tutorial.dailyTitle")} />
            <ul className="grid gap-3 md:grid-cols-2">
              {DAILY.map((area) => (
                <li key={area.key} className="grid">
                  <AreaCard area={area} help={help[area.help]} />
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : (
        <section aria-labelledby="tutorial-work" className="grid gap-4">
          <SectionTitle id="tutorial-work" title={t("tutorial.technicianTitle")} />
          <ul className="grid gap-3 md:grid-cols-2">
            {TECHNICIAN.map((area) => (
              <li key={area.key} className="grid">
                <AreaCard area={area} help={help[area.help]} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="tutorial-tips" className="grid gap-4">
        <SectionTitle id="tutorial-tips" title={t("tutorial.tipsTitle")} />
        <ul className="grid gap-3 rounded-xl border bg-card p-5 text-sm shadow-sm">
          <Tip icon="report">
            {t("tutorial.tips.report")}{" "}
            <Link to={dialogHref(location, "report")} preventScrollReset className="font-medium text-primary underline-offset-4 hover:underline">
              {t("tutorial.tips.reportLink")}
            </Link>
          </Tip>
          <Tip icon="qr">{t("tutorial.tips.qr")}</Tip>
          <Tip icon="globe">{t("tutorial.tips.language")}</Tip>
        </ul>
      </section>
    </div>
  );
}

function SectionTitle({ id, title, text }: { id: string; title: string; text?: string }) {
  return (
    <div className="grid gap-1">
      <h2 id={id} className="text-lg font-semibold tracking-tight">
        {title}
      </h2>
      {text ? <p className="text-sm text-muted-foreground">{text}</p> : null}
    </div>
  );
}

function AreaCard({ area, help, step }: { area: Area; help: string | null; step?: number }) {
  const { t } = useTranslation("shell");
  const title = t(`tutorial.areas.${area.key}.title`);
  return (
    <article className="flex h-full gap-4 rounded-xl border bg-card p-5 shadow-sm">
      <div className="flex flex-col items-center gap-2">
        {step ? (
          <span className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground">
            <span className="sr-only">{t("tutorial.stepLabel", { number: step })}: </span>
            {step}
          </span>
        ) : (
          <span aria-hidden="true" className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Icon name={area.icon} />
          </span>
        )}
      </div>
      <div className="grid min-w-0 flex-1 content-start gap-2">
        <h3 className="flex items-center gap-2 font-semibold">
          {step ? <Icon name={area.icon} className="size-4 text-primary" /> : null}
          {title}
        </h3>
        <p className="text-sm leading-relaxed text-muted-foreground">{t(`tutorial.areas.${area.key}.text`)}</p>
        <div className="mt-1 flex flex-wrap gap-2">
          <Link to={area.to} className={cn(buttonVariants({ variant: "outline", size: "sm" }))}>
            {t("tutorial.open")}
            <span className="sr-only">: {title}</span>
            <Icon name="chevronRight" />
          </Link>
          {help ? (
            <a
              href={help}
              target="_blank"
              rel="noreferrer noopener"
              aria-label={t("tutorial.helpFor", { topic: title })}
              className={cn(buttonVariants({ variant: "ghost", size: "sm" }), "text-muted-foreground")}
            >
              <Icon name="help" />
              {t("tutorial.help")}
            </a>
          ) : null}
        </div>
      </div>
    </article>
  );
}

function Tip({ icon, children }: { icon: IconName; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <Icon name={icon} className="mt-0.5 size-4 text-primary" />
      <p className="leading-relaxed">{children}</p>
    </li>
  );
}
