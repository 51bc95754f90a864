import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { assertCan, personWhoCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { withTx } from "~/core/unit-of-work.server";
import { webhookEndpoints } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { isPublicAddress, resolveHost } from "./address.server";
import { allowPrivateTargets, queueDelivery } from "./delivery.server";
import { getWebhook, type WebhookView, webhookNotFound } from "./queries.server";
import { PING_EVENT, type WebhookInput, WebhookSchema, type WebhookValues } from "./schema";
import { newWebhookSecret, sealWebhookSecret } from "./signing.server";

/**
 * Every write of webhook endpoints (decision 057): register, edit, disable, enable, delete, rotate the
 * secret, send a test ping. Administrators only (`webhook: manage`); every read and write is filtered by
 * the entity, and audited. The secret is answered only by the verbs that make it (shown once), and
 * stored sealed (decision 057).
 */

/**
 * Refuses a URL the server may not call (decision 057), beside the URL field: http:// and hosts that are
 * not public (an IP literal, or a name resolving to any such address, or to none) unless
 * WEBHOOKS_ALLOW_PRIVATE. Each delivery checks again (a name may resolve elsewhere later).
 */
async function checkTarget(url: string): Promise<void> {
  if (allowPrivateTargets()) return;
  const parsed = new URL(url);
  if (parsed.protocol !== "https:") throw new ValidationError({ url: ["webhooks:validation.httpsRequired"] }, "webhooks:validation.httpsRequired", "WEBHOOK_HTTPS_REQUIRED");
  const addresses = await resolveHost(parsed.hostname);
  if (addresses.length === 0) throw new ValidationError({ url: ["webhooks:validation.urlUnresolvable"] }, "webhooks:validation.urlUnresolvable", "WEBHOOK_URL_UNRESOLVABLE");
  if (addresses.some((address) => !isPublicAddress(address))) {
    throw new ValidationError({ url: ["webhooks:validation.urlPrivate"] }, "webhooks:validation.urlPrivate", "WEBHOOK_URL_PRIVATE");
  }
}

async function lockedEndpoint(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.entityId, ctx.entityId)))
    .for("update");
  if (!row) throw webhookNotFound();
  return row;
}

/** A new endpoint, and its secret (shown this once). */
export async function createWebhook(ctx: ServiceContext, input: WebhookInput): Promise<{ webhook: WebhookView; secret: string }> {
  const person = personWhoCan(ctx.actor, "manage", "webhook");
  const values: WebhookValues = parseInput(WebhookSchema, input);
  await checkTarget(values.url);
  const secret = newWebhookSecret();
  const id = await withTx(ctx, async (tx, effects) => {
    const [row] = await tx.db
      .insert(webhookEndpoints)
      .values({ entityId: ctx.entityId, name: values.name, url: values.url, events: values.events, secret: sealWebhookSecret(secret, ctx.entityId), createdById: person.id })
      .returning({ id: webhookEndpoints.id });
    await effects.audit({ action: "webhook.create", recordType: "webhook", recordId: row.id, details: { name: values.name, url: values.url, events: values.events } });
    return row.id;
  });
  return { webhook: await getWebhook(ctx, id), secret };
}

/** Changes an endpoint's name, URL and events (its secret and state stay). */
export async function updateWebhook(ctx: ServiceContext, id: number, input: WebhookInput): Promise<WebhookView> {
  assertCan(ctx.actor, "manage", "webhook");
  const values: WebhookValues = parseInput(WebhookSchema, input);
  await checkTarget(values.url);
  await withTx(ctx, async (tx, effects) => {
    await lockedEndpoint(tx, id);
    await tx.db
      .update(webhookEndpoints)
      .set({ name: values.name, url: values.url, events: values.events, updatedAt: new Date(now()) })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.entityId, ctx.entityId)));
    await effects.audit({ action: "webhook.update", recordType: "webhook", recordId: id, details: { name: values.name, url: values.url, events: values.events } });
  });
  return getWebhook(ctx, id);
}

/**
 * Disables an endpoint (no deliveries are made to it; those waiting fail) or enables it again (the count
 * of failed deliveries starts again at zero).
 */
export async function setWebhookEnabled(ctx: ServiceContext, id: number, enabled: boolean): Promise<WebhookView> {
  assertCan(ctx.actor, "manage", "webhook");
  await withTx(ctx, async (tx, effects) => {
    const endpoint = await lockedEndpoint(tx, id);
    if (endpoint.enabled === enabled) return;
    await tx.db
      .update(webhookEndpoints)
      .set(
        enabled
          ? { enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0, updatedAt: new Date(now()) }
          : { enabled: false, disabledReason: "manual", disabledAt: new Date(now()), updatedAt: new Date(now()) },
      )
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.entityId, ctx.entityId)));
    await effects.audit({ action: enabled ? "webhook.enable" : "webhook.disable", recordType: "webhook", recordId: id, details: { reason: enabled ? null : "manual" } });
  });
  return getWebhook(ctx, id);
}

/** Deletes an endpoint and its deliveries (a waiting attempt then finds nothing to send). */
export async function deleteWebhook(ctx: ServiceContext, id: number): Promise<void> {
  assertCan(ctx.actor, "manage", "webhook");
  await withTx(ctx, async (tx, effects) => {
    const endpoint = await lockedEndpoint(tx, id);
    await tx.db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.entityId, ctx.entityId)));
    await effects.audit({ action: "webhook.delete", recordType: "webhook", recordId: id, details: { name: endpoint.name, url: endpoint.url } });
  });
}

/** A new secret for an endpoint (the old one stops signing at once), shown this once. */
export async function rotateWebhookSecret(ctx: ServiceContext, id: number): Promise<{ secret: string }> {
  assertCan(ctx.actor, "manage", "webhook");
  const secret = newWebhookSecret();
  await withTx(ctx, async (tx, effects) => {
    await lockedEndpoint(tx, id);
    await tx.db
      .update(webhookEndpoints)
      .set({ secret: sealWebhookSecret(secret, ctx.entityId), updatedAt: new Date(now()) })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.entityId, ctx.entityId)));
    await effects.audit({ action: "webhook.rotate-secret", recordType: "webhook", recordId: id });
  });
  return { secret };
}

/**
 * Sends a test ping (`type: "ping"`) to an endpoint, enabled or not: one attempt, soon after, listed with
 * the deliveries; it does not count towards disabling. Returns the delivery's id.
 */
export async function pingWebhook(ctx: ServiceContext, id: number): Promise<number> {
  assertCan(ctx.actor, "manage", "webhook");
  return withTx(ctx, async (tx, effects) => {
    const endpoint = await lockedEndpoint(tx, id);
    return queueDelivery(
      { db: tx.db, entityId: ctx.entityId },
      effects,
      endpoint.id,
      { id: randomUUID(), type: PING_EVENT, createdAt: new Date(now()).toISOString(), entityId: ctx.entityId, data: { webhookId: endpoint.id, name: endpoint.name } },
      { changeId: null, maxAttempts: 1 },
    );
  });
}
