import { and, eq, isNotNull } from "drizzle-orm";
import { changeOf, defineChangeHandler } from "~/core/changes.server";
import type { ServiceContext } from "~/core/context.server";
import type { Effects } from "~/core/unit-of-work.server";
import { IncidentStatus } from "~/db/enums";
import { incidentReporters, incidents } from "~/db/schema";
import { incidentStatusChanged } from "~/modules/incidents/changes.server";
import { isLocale } from "~/i18n";
import { getT } from "~/i18n.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { renderMail } from "~/mail/templates.server";
import { createStatusToken } from "./status-token.server";

/**
 * Tells the occupiers who reported an incident and left an email that it is Done or Rejected, each in
 * their language, with the link to their status page: a change handler of `incident.status-changed`
 * (decision 048), whoever closed it (the incidents screens, or archiving its place). The mails are jobs
 * written in the dispatch transaction. The link needs the token, which is not stored: the mail points
 * at the status page by a new token.
 */
export const reporterMailsHandler = defineChangeHandler({
  name: "reporter-mails",
  types: [incidentStatusChanged.type],
  async handle(ctx, change, effects) {
    const { incidentId, to } = changeOf(incidentStatusChanged, change);
    if (to !== IncidentStatus.DONE && to !== IncidentStatus.REJECTED) return;
    const [incident] = await ctx.db
      .select({ id: incidents.id, shortId: incidents.shortId, title: incidents.title })
      .from(incidents)
      .where(and(eq(incidents.id, incidentId), eq(incidents.entityId, ctx.entityId)));
    if (incident) await mailReportersOnClose(ctx, effects, incident, to);
  },
});

export async function mailReportersOnClose(
  ctx: ServiceContext,
  effects: Effects,
  incident: { id: number; shortId: number; title: string },
  status: number,
): Promise<void> {
  if (status !== IncidentStatus.DONE && status !== IncidentStatus.REJECTED) return;
  const reporters = await ctx.db
    .select({ id: incidentReporters.id, email: incidentReporters.email, locale: incidentReporters.locale })
    .from(incidentReporters)
    .where(and(eq(incidentReporters.incidentId, incident.id), eq(incidentReporters.entityId, ctx.entityId), isNotNull(incidentReporters.statusTokenHash)));
  if (reporters.length === 0) return;
  for (const reporter of reporters) {
    const locale = isLocale(reporter.locale) ? reporter.locale : "en";
    const token = await createStatusToken(ctx, reporter.id);
    const mail = renderMail(locale, "report:mail.closed", {
      shortId: incident.shortId,
      type: incident.title,
      status: getT(locale, "incidents")(`incidents:status.${status}`),
      link: `${ctx.appUrl ?? ""}/report/status/${token}`,
    });
    await effects.enqueue(sendEmailJob, { to: reporter.email, ...mail });
  }
}
