import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { Badge } from "~/components/ui/badge";
import { buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { DialogTrigger } from "~/components/ui/dialog";
import { answersByReport, answerText } from "~/lib/checklist-answers";
import { COMMENT_SECTION, type ViewDialog } from "~/lib/incident-view";
import { cn } from "~/lib/utils";
import type { IncidentDetail } from "~/modules/incidents/queries.server";
import { DueText } from "~/components/service-levels/due";
import { DateTime, priorityLabel, StatusBadge, useViewDialog } from "./format";
import { numberFormat } from "~/lib/intl";
import { preloadIncidentDialogs } from "./lazy-dialogs";

/** What the view shows of an incident (the loader's `getIncident`, as JSON). */
export type IncidentView = IncidentDetail;

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

/** A dialog's trigger: a link to `?dialog=<name>` that works without JavaScript. */
function DialogLink({ name, children, label }: { name: ViewDialog; children: ReactNode; label?: string }) {
  const dialog = useViewDialog(name);
  return (
    <DialogTrigger
      to={dialog.openTo()}
      variant="outline"
      size="sm"
      aria-label={label}
      className="h-auto min-h-11 w-full whitespace-normal py-2 text-center sm:min-h-9 sm:w-auto"
      onPointerEnter={preloadIncidentDialogs}
      onFocus={preloadIncidentDialogs}
    >
      {children}
    </DialogTrigger>
  );
}

/**
 * The top of the incident view: back to the list, "#<shortId> <title>", the status, priority and
 * assignee, the actions (each a URL dialog) and "Print work order" (the PDF, in a new tab).
 */
export function IncidentHeader({ incident }: { incident: IncidentView }) {
  const { t } = useTranslation("incidentView");
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <BackLink to="/incidents">{t("back")}</BackLink>
        <h1 className="break-words text-2xl font-semibold tracking-tight">{t("heading", { shortId: incident.shortId, title: incident.title })}</h1>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <StatusBadge status={incident.status} />
          <Badge variant="outline">
            {t("priorityBadge", {
              priority: priorityLabel(t, incident.priority),
            })}
          </Badge>
          <span className="text-muted-foreground">{incident.assignee ? t("assignedTo", { name: incident.assignee.name }) : t("incidents:unassigned")}</span>
        </p>
      </div>
      <nav aria-label={t("actions.label")} className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <DialogLink name="status">{t("actions.status")}</DialogLink>
        <DialogLink name="assign">{t("actions.assign")}</DialogLink>
        <DialogLink name="priority">{t("actions.priority")}</DialogLink>
        <DialogLink name="tags">{t("actions.tags")}</DialogLink>
        <DialogLink name="title">{t("actions.title")}</DialogLink>
        <DialogLink name="description">{t("actions.description")}</DialogLink>
        <DialogLink name="duplicate">{t("actions.duplicate")}</DialogLink>
        <a
          href={`/incident/${incident.id}/work-order.pdf`}
          target="_blank"
          rel="noopener"
          className={cn(buttonVariants({ variant: "default", size: "sm" }), "h-auto min-h-11 w-full whitespace-normal py-2 text-center sm:min-h-9 sm:w-auto")}
        >
          {t("actions.print")}
        </a>
        <a
          href={`#${COMMENT_SECTION}`}
          className={cn(buttonVariants({ variant: "ghost", size: "sm" }), "col-span-2 h-auto min-h-11 w-full whitespace-normal py-2 sm:min-h-9 sm:w-auto")}
        >
          {t("actions.toComments")}
        </a>
      </nav>
    </div>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

/** The incident's fields (SPEC.md section 3), the location as links to the room view. */
export function IncidentDetails({ incident, now }: { incident: IncidentView; now: string }) {
  const { t, i18n } = useTranslation("incidentView");
  const none = <span className="text-muted-foreground">{t("none")}</span>;
  const loc = incident.location;
  const number = numberFormat(i18n.language);
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("sections.details")}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-4 lg:grid-cols-3">
          <Item label={t("incidents:fields.status")}>
            <StatusBadge status={incident.status} />
          </Item>
          <Item label={t("incidents:fields.priority")}>{priorityLabel(t, incident.priority)}</Item>
          <Item label={t("incidents:fields.assignee")}>{incident.assignee?.name ?? t("incidents:unassigned")}</Item>
          <Item label={t("incidents:fields.createdAt")}>
            <DateTime iso={incident.createdAt} />
          </Item>
          <Item label={t("incidents:fields.lastOccurrence")}>
            <DateTime iso={incident.lastOccurrenceAt} />
          </Item>
          <Item label={t("incidents:fields.occurrences")}>
            <span data-testid="occurrences">{number.format(incident.occurrences)}</span>
          </Item>
          <Item label={t("incidents:fields.incidentType")}>{incident.incidentType?.name ?? none}</Item>
          <Item label={t("incidents:fields.tags")}>
            {incident.tags.length ? (
              <ul className="flex flex-wrap gap-1">
                {incident.tags.map((tag) => (
                  <li key={tag}>
                    <Badge variant="secondary">{tag}</Badge>
                  </li>
                ))}
              </ul>
            ) : (
              none
            )}
          </Item>
          <Item label={t("incidents:fields.reporters")}>
            {incident.reporters.length ? (
              <ul className="grid gap-0.5">
                {incident.reporters.map((email) => (
                  <li key={email} className="break-all">
                    {email}
                  </li>
                ))}
              </ul>
            ) : (
              none
            )}
          </Item>
          <Item label={t("location.room")}>
            {loc.roomId && loc.roomName ? (
              <Link to={`/view-room/${loc.roomId}`} className={linkClass}>
                {loc.roomName}
              </Link>
            ) : (
              loc.text ?? none
            )}
          </Item>
          {loc.equipmentItemId && loc.equipmentName ? (
            <Item label={t("location.equipment")}>
              {loc.roomId ? (
                <Link to={`/view-room/${loc.roomId}`} className={linkClass}>
                  {t("location.item", {
                    name: loc.equipmentName,
                    reference: loc.internalReference ?? "",
                  })}
                </Link>
              ) : (
                t("location.item", {
                  name: loc.equipmentName,
                  reference: loc.internalReference ?? "",
                })
              )}
            </Item>
          ) : null}
          <Item label={t("incidents:fields.floor")}>{loc.floor || none}</Item>
          <Item label={t("location.building")}>{loc.buildingName ?? none}</Item>
          <Item label={t("location.facility")}>{loc.facilityName ?? none}</Item>
          {incident.doneAt ? (
            <Item label={t("doneAt")}>
              <DateTime iso={incident.doneAt} />
            </Item>
          ) : null}
          {incident.responseTargetMinutes !== null ? (
            <Item label={t("serviceLevels:due.response")}>
              <DueText now={now} facts={{ targetMinutes: incident.responseTargetMinutes, dueAt: incident.responseDueAt, metAt: incident.respondedAt, met: incident.responseMet }} />
            </Item>
          ) : null}
          {incident.resolutionTargetMinutes !== null ? (
            <Item label={t("serviceLevels:due.resolution")}>
              <DueText now={now} facts={{ targetMinutes: incident.resolutionTargetMinutes, dueAt: incident.resolutionDueAt, metAt: incident.resolvedAt, met: incident.resolutionMet }} />
            </Item>
          ) : null}
        </dl>
      </CardContent>
    </Card>
  );
}

/** The description, the checklist answers (hidden when there are none) and the duplicates. */
export function IncidentDescription({ incident }: { incident: IncidentView }) {
  const { t } = useTranslation("incidentView");
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("incidents:fields.description")}</CardTitle>
      </CardHeader>
      <CardContent>
        {incident.description ? (
          <p className="whitespace-pre-wrap break-words text-sm">{incident.description}</p>
        ) : (
          <p className="text-sm text-muted-foreground">{t("noDescription")}</p>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The reporters' checklist answers, report by report (each titled with when it was made, numbered when
 * there are several), yes/no and numbers in the reader's words; hidden when there are none.
 */
export function IncidentChecklist({ incident }: { incident: IncidentView }) {
  const { t, i18n } = useTranslation("incidentView");
  if (incident.checklist.length === 0) return null;
  const reports = answersByReport(incident.checklist);
  const words = { yes: t("checklist.yes"), no: t("checklist.no") };
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("checklist.title")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {reports.map((report, index) => (
          <section key={report.reportedAt} aria-label={t("checklist.report", { number: index + 1 })} className="grid gap-2">
            <h3 className="text-sm font-semibold">
              {reports.length > 1 ? `${t("checklist.report", { number: index + 1 })} · ` : null}
              <DateTime iso={report.reportedAt} />
            </h3>
            <ol className="grid gap-3">
              {report.answers.map((item) => (
                <li key={item.position} className="grid gap-1 border-l-2 pl-3 text-sm">
                  <p className="font-medium">{item.question}</p>
                  {item.file ? (
                    <a href={item.file.url} target="_blank" rel="noreferrer" className="w-fit">
                      <img
                        src={item.file.url}
                        alt={t("checklist.photo", { question: item.question })}
                        loading="lazy"
                        className="size-24 rounded border object-cover"
                      />
                    </a>
                  ) : (
                    <p className="whitespace-pre-wrap break-words">
                      {answerText(item, words, i18n.language) ?? <span className="text-muted-foreground">{t("checklist.noAnswer")}</span>}
                    </p>
                  )}
                </li>
              ))}
            </ol>
          </section>
        ))}
      </CardContent>
    </Card>
  );
}

/** "Duplicate of #N", and the incidents folded into this one; nothing when neither. */
export function IncidentDuplicates({ incident }: { incident: IncidentView }) {
  const { t } = useTranslation("incidentView");
  if (!incident.duplicateOf && incident.duplicates.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t("duplicates.title")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {incident.duplicateOf ? (
          <p>
            {t("duplicates.of")}{" "}
            <Link to={`/incident/${incident.duplicateOf.id}`} className={linkClass}>
              #{incident.duplicateOf.shortId}
            </Link>
          </p>
        ) : null}
        {incident.duplicates.length ? (
          <div className="grid gap-1">
            <p>{t("duplicates.folded")}</p>
            <ul className="grid gap-1">
              {incident.duplicates.map((d) => (
                <li key={d.id}>
                  <Link to={`/incident/${d.id}`} className={linkClass}>
                    {t("heading", { shortId: d.shortId, title: d.title })}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
