import { z } from "zod";
import { noControl, requiredText } from "~/lib/schema-helpers";
import { CONTROL_CHARACTERS_MESSAGE } from "~/lib/text";
import { WEBHOOK_EVENTS } from "./events";

/**
 * Webhook endpoints (decision 057): one shape for the form (client and server validation) and the verbs.
 * Client-safe; messages are i18n keys. Whether the URL's host is public and the scheme https depends on
 * the server's setting (WEBHOOKS_ALLOW_PRIVATE) and on DNS, so the verbs check that (service.server.ts).
 */

export { PING_EVENT, WEBHOOK_EVENTS, type WebhookEvent, webhookEventKey } from "./events";

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
