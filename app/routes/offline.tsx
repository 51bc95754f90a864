import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { screenLoader } from "~/http/screen.server";
import { useDates } from "~/lib/use-dates";
import { keptPages } from "~/modules/offline/kept-pages.server";

/**
 * /offline, for every signed-in user (issue 64, decision 067): what this person keeps for working without
 * the network (their tasks of today and tomorrow, their open incidents, the rooms those are in). The service
 * worker keeps this page too, and shows it for any page that is not kept while the network is down.
 */
export const loader = screenLoader(({ ctx }) => keptPages(ctx));

export default function OfflineScreen() {
  const { t } = useTranslation("shell");
  const dates = useDates();
  const kept = useLoaderData<typeof loader>();
  const dayLabel = (day: string) => (day === kept.today ? t("offline.page.today") : day === kept.tomorrow ? t("offline.page.tomorrow") : dates.day(day));
  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{t("offline.page.title")}</h1>
        <p className="max-w-3xl text-muted-foreground">{t("offline.page.intro")}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <KeptCard
          title={t("offline.page.tasks")}
          to="/task"
          empty={t("offline.page.noTasks")}
          entries={kept.tasks.map((task) => ({
            href: task.href,
            label: task.planName,
            detail: `${dayLabel(task.dueDate)} · ${task.roomName}, ${task.buildingName}${task.done ? ` · ${t("offline.page.done")}` : ""}`,
          }))}
        />
        <KeptCard
          title={t("offline.page.incidents")}
          to="/incidents"
          empty={t("offline.page.noIncidents")}
          entries={kept.incidents.map((incident) => ({ href: incident.href, label: `#${incident.shortId} ${incident.title}` }))}
        />
        <KeptCard
          title={t("offline.page.rooms")}
          empty={t("offline.page.noRooms")}
          entries={kept.rooms.map((room) => ({ href: room.href, label: room.roomName, detail: room.buildingName }))}
        />
      </div>
      <p className="max-w-3xl text-sm text-muted-foreground">{t("offline.page.writes")}</p>
    </div>
  );
}

/** One kind of kept page: its links, each with a line of detail, or what to say when there is none. */
function KeptCard({ title, to, empty, entries }: { title: string; to?: string; empty: string; entries: { href: string; label: string; detail?: string }[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {to ? (
            <Link to={to} className="underline-offset-4 hover:underline">
              {title}
            </Link>
          ) : (
            title
          )}
        </CardTitle>
      </CardHeader>
      <CardContent>
        {entries.length ? (
          <ul className="grid gap-2">
            {entries.map((entry) => (
              <li key={entry.href}>
                <Link to={entry.href} className="font-medium text-primary underline-offset-4 hover:underline">
                  {entry.label}
                </Link>
                {entry.detail ? <span className="block text-sm text-muted-foreground">{entry.detail}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{empty}</p>
        )}
      </CardContent>
    </Card>
  );
}
