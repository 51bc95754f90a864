import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { TabLink, Tabs } from "~/components/ui/tabs";
import { ACTIVITY_PARAM, ACTIVITY_SECTION, type ActivityTab, EVENTS_SHOWN_PARAM, MAX_EVENTS_SHOWN } from "~/lib/incident-view";
import { EVENTS_PAGE } from "~/modules/incidents/constants";
import type { IncidentComment } from "~/modules/incidents/queries.server";
import { type EventEntry, eventNote, eventText } from "./event-text";
import { DateTime, ShowEarlier } from "./format";

type HistoryEntry = { kind: "event"; at: string; event: EventEntry } | { kind: "comment"; at: string; comment: IncidentComment };

/**
 * The history of the incident view (SPEC.md section 2 names "events" and "history"): the comments and
 * the events together, in time order, oldest first; the events tab shows the events alone.
 */
export function historyEntries(events: EventEntry[], comments: IncidentComment[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [
    ...events.map((event) => ({
      kind: "event" as const,
      at: event.createdAt,
      event,
    })),
    ...comments.map((comment) => ({
      kind: "comment" as const,
      at: comment.createdAt,
      comment,
    })),
  ];
  // Stable: at the same instant an event comes before a comment (a status change, then why).
  return entries.sort((a, b) => a.at.localeCompare(b.at) || (a.kind === b.kind ? 0 : a.kind === "event" ? -1 : 1));
}

/**
 * The activity of the incident: two tabs, links to `?activity=events` and `?activity=history`
 * (they work without JavaScript), each a list oldest first.
 */
export function IncidentActivity({
  active,
  events,
  eventsTotal,
  comments,
}: {
  active: ActivityTab;
  events: EventEntry[];
  eventsTotal: number;
  comments: IncidentComment[];
}) {
  const { t } = useTranslation("incidentView");
  const location = useLocation();
  const tabTo = (tab: ActivityTab) => {
    const params = new URLSearchParams(location.search);
    params.delete("dialog");
    params.set(ACTIVITY_PARAM, tab);
    return `${location.pathname}?${params.toString()}#${ACTIVITY_SECTION}`;
  };
  const history = active === "history" ? historyEntries(events, comments) : [];
  return (
    <Card id={ACTIVITY_SECTION} className="scroll-mt-4">
      <CardHeader>
        <CardTitle as="h2">{t("activity.title")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Tabs label={t("activity.tabs")}>
          <TabLink to={tabTo("events")} active={active === "events"} preventScrollReset prefetch="none">
            {t("incidents:fields.events")}
          </TabLink>
          <TabLink to={tabTo("history")} active={active === "history"} preventScrollReset prefetch="none">
            {t("incidents:fields.history")}
          </TabLink>
        </Tabs>
        {eventsTotal > events.length ? (
          <p className="flex flex-wrap items-baseline gap-x-3 text-sm text-muted-foreground">
            {t("activity.latest", { count: events.length, total: eventsTotal })}
            <ShowEarlier param={EVENTS_SHOWN_PARAM} shown={events.length} page={EVENTS_PAGE} max={MAX_EVENTS_SHOWN} anchor={ACTIVITY_SECTION}>
              {t("activity.showEarlier")}
            </ShowEarlier>
          </p>
        ) : null}
        {active === "events" ? (
          events.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("activity.noEvents")}</p>
          ) : (
            <ol className="grid gap-3" aria-label={t("incidents:fields.events")}>
              {events.map((event) => (
                <EventItem key={event.id} event={event} />
              ))}
            </ol>
          )
        ) : history.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("activity.noHistory")}</p>
        ) : (
          <ol className="grid gap-3" aria-label={t("incidents:fields.history")}>
            {history.map((entry) =>
              entry.kind === "event" ? (
                <EventItem key={`e${entry.event.id}`} event={entry.event} />
              ) : (
                <li key={`c${entry.comment.id}`} className="grid gap-0.5 border-l-2 border-primary/40 pl-3 text-sm">
                  <p className="font-medium">
                    {t("activity.commented", {
                      actor: entry.comment.author.name || t("comments.unknownAuthor"),
                    })}
                  </p>
                  <p className="line-clamp-3 whitespace-pre-wrap break-words">{entry.comment.body}</p>
                  <p className="text-muted-foreground">
                    <DateTime iso={entry.comment.createdAt} />
                  </p>
                </li>
              ),
            )}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function EventItem({ event }: { event: EventEntry }) {
  const { t } = useTranslation("incidentView");
  return (
    <li className="grid gap-0.5 border-l-2 pl-3 text-sm">
      <p className="break-words">{eventText(t, event)}</p>
      {eventNote(event) ? <blockquote className="whitespace-pre-line break-words border-l pl-2 italic">{eventNote(event)}</blockquote> : null}
      <p className="text-muted-foreground">
        <DateTime iso={event.createdAt} />
      </p>
    </li>
  );
}
