import type { TFunction } from "i18next";
import type { IncidentEventEntry } from "~/modules/incidents/queries.server";
import { priorityLabel } from "./format";

/** An event of the timeline, as the page receives it (listIncidentEvents). */
export type EventEntry = IncidentEventEntry;

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const text = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");
/** A person of an assignment event (`{ id, name }`), by name. */
const personName = (value: unknown): string => text(record(value)?.name);

/**
 * The sentence of an event (SPEC.md section 3, event types 0 to 8, 9 of decision 024 and 10 of decision 026): who (the
 * actor, "An occupier" for a report, else "System" when nobody) did what, old and new values translated.
 */
export function eventText(t: TFunction, event: EventEntry): string {
  const actor = event.actor || (event.type === 0 ? t("incidents:occupier") : t("incidents:system"));
  const status = (v: unknown) => (typeof v === "number" ? t(`incidents:status.${v}`) : text(v));
  switch (event.type) {
    case 0:
      return t("incidents:events.0", { actor });
    case 1: {
      const to = personName(event.newValue);
      if (!event.newValue)
        return t("incidents:events.1_none", {
          actor,
          from: personName(event.oldValue) || t("incidents:unassigned"),
        });
      return t("incidents:events.1", {
        actor,
        to: to || t("incidents:unassigned"),
      });
    }
    case 2:
      return t("incidents:events.2", {
        actor,
        from: status(event.oldValue),
        to: status(event.newValue),
      });
    case 3:
      return t("incidents:events.3", {
        actor,
        from: priorityLabel(t, event.oldValue as number | null),
        to: priorityLabel(t, event.newValue as number | null),
      });
    case 4: {
      const value = record(event.newValue);
      const shortId = text(value?.shortId);
      return value && "occurrences" in value ? t("incidents:events.4_kept", { actor, shortId }) : t("incidents:events.4", { actor, shortId });
    }
    case 5:
      return t("incidents:events.5", { actor, tag: text(event.newValue) });
    case 6:
      return t("incidents:events.6", { actor, tag: text(event.oldValue) });
    case 7:
      return t("incidents:events.7", {
        actor,
        from: text(event.oldValue),
        to: text(event.newValue),
      });
    case 8:
      return t("incidents:events.8", { actor });
    case 9:
      return t("incidents:events.9", {
        actor,
        from: text(record(event.oldValue)?.name),
      });
    case 10: {
      // A report folded into this open incident (decision 026): by an occupier, or staff from the room view.
      const occurrences = Number(record(event.newValue)?.occurrences);
      const count = Number.isFinite(occurrences) ? occurrences : 0;
      return event.actor ? t("incidents:events.10_staff", { actor: event.actor, count }) : t("incidents:events.10", { count });
    }
    default:
      return t("incidentView:activity.unknownEvent", { actor });
  }
}

/** The words of a later reporter, for a "reported again" event (10), shown under its sentence. */
export function eventNote(event: EventEntry): string | null {
  if (event.type !== 10) return null;
  const description = record(event.newValue)?.description;
  return typeof description === "string" && description.trim() !== "" ? description : null;
}
