import { z } from "zod";
import { noControl, requiredText } from "~/lib/schema-helpers";
import { CONTROL_CHARACTERS_MESSAGE } from "~/lib/text";

/**
 * Webhook endpoints (decision 057): one shape for the form (client and server validation) and the verbs.
 * Client-safe; messages are i18n keys. Whether the URL's host is public and the scheme https depends on
 * the server's setting (WEBHOOKS_ALLOW_PRIVATE) and on DNS, so the verbs check that (service.server.ts).
 */

/**
 * The change events an endpoint may subscribe to, by their change names (decision 048). The import and
 * export ones are emitted by the data area once it finishes a background job.
 */
export const WEBHOOK_EVENTS = ["incident.created", "incident.status-changed", "incident.assigned", "incident.commented", "task.done", "import.finished", "export.finished"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The translation key of an event's name (`webhooks:` namespace; keys hold no dots, decision 033). */
export function webhookEventKey(type: string): string {
  return `events.${type.replace(/\./g, "_")}`;
}

/** The type of a test ping (not a change event; nobody subscribes to it). */
export const PING_EVENT = "ping";

export const MAX_WEBHOOK_NAME = 100;
export const MAX_WEBHOOK_URL = 2000;

const url = () =>
  z
    .string({ error: "webhooks:validation.urlRequired" })
    .trim()
    .min(1, "webhooks:validation.urlRequired")
    .max(MAX_WEBHOOK_URL, "webhooks:validation.urlTooLong")
    .refine(noControl, CONTROL_CHARACTERS_MESSAGE)
    .refine((value) => {
      if (!URL.canParse(value)) return false;
      const parsed = new URL(value);
      return (parsed.protocol === "https:" || parsed.protocol === "http:") && parsed.hostname !== "";
    }, "webhooks:validation.urlInvalid")
    .refine((value) => !URL.canParse(value) || (new URL(value).username === "" && new URL(value).password === ""), "webhooks:validation.urlCredentials");

const events = () =>
  z
    .array(z.enum(WEBHOOK_EVENTS, { error: "webhooks:validation.eventUnknown" }), { error: "webhooks:validation.eventsRequired" })
    .nullish()
    .transform((list) => [...new Set(list ?? [])])
    .refine((list) => list.length > 0, "webhooks:validation.eventsRequired");

export const WebhookSchema = z.object({
  name: requiredText(MAX_WEBHOOK_NAME),
  url: url(),
  events: events(),
});

export type WebhookInput = z.input<typeof WebhookSchema>;
export type WebhookValues = z.output<typeof WebhookSchema>;
