/**
 * The names of webhook events, zod-free so that screens can list them without loading the form's schema
 * (which the webhook screens load only to validate, on demand).
 */

/**
 * The change events an endpoint may subscribe to, by their change names (decision 048): the change
 * definitions marked `webhook: true` in the areas' changes.server.ts, which are the source; this copy
 * exists for the form and its schema in the browser, and events.server.test.ts fails when the two
 * differ. The import and export ones are emitted by the data area once it finishes a background job.
 */
export const WEBHOOK_EVENTS = ["incident.created", "incident.status-changed", "incident.assigned", "incident.commented", "incident.service-level-alert", "task.done", "import.finished", "export.finished"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The translation key of an event's name (`webhooks:` namespace; keys hold no dots, decision 005). */
export function webhookEventKey(type: string): string {
  return `events.${type.replace(/\./g, "_")}`;
}

/** The type of a test ping (not a change event; nobody subscribes to it). */
export const PING_EVENT = "ping";
