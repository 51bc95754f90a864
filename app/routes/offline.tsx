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
        <Card>
          <CardHeader>
            <CardTitle>
              <Link to="/task" className="underline-offset-4 hover:underline">
                {t("offline.page.tasks")}
              </Link>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {kept.tasks.length ? (
              <ul className="grid gap-2">
                {kept.tasks.map((task) => (
                  <li key={task.href}>
                    <Link to={task.href} className="font-medium text-primary underline-offset-4 hover:underline">
                      {task.planName}
                    </Link>
                    <span className="block text-sm text-muted-foreground">
                      {dayLabel(task.dueDate)} · {task.roomName}, {task.buildingName}
                      {task.done ? ` · ${t("offline.page.done")}` : ""}
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">{t("offline.page.noTasks")}</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <Link to="/incidents" className="underline-offset-4 hover:underline">
                {t("offline.page.incidents")}
              </Link>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {kept.incidents.length ? (
              <ul className="grid gap-2">
                {kept.incidents.map((incident) => (
                  <li key={incident.href}>
                    <Link to={incident.href} className="font-medium text-primary underline-offset-4 hover:underline">
                      #{incident.shortId} {incident.title}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">{t("offline.page.noIncidents")}</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("offline.page.rooms")}</CardTitle>
          </CardHeader>
          <CardContent>
            {kept.rooms.length ? (
              <ul className="grid gap-2">
                {kept.rooms.map((room) => (
                  <li key={room.href}>
                    <Link to={room.href} className="font-medium text-primary underline-offset-4 hover:underline">
                      {room.roomName}
                    </Link>
                    <span className="block text-sm text-muted-foreground">{room.buildingName}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">{t("offline.page.noRooms")}</p>
            )}
          </CardContent>
        </Card>
      </div>
      <p className="max-w-3xl text-sm text-muted-foreground">{t("offline.page.writes")}</p>
    </div>
  );
}
