import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { config } from "~/config.server";
import { defineChangeHandler } from "~/core/changes.server";
import { type ContextServices, entitySystemContext } from "~/core/context.server";
import { UnreadableSecretError } from "~/core/sealed-secrets.server";
import { defineJob } from "~/core/jobs.server";
import { defineSchedule } from "~/core/schedules.server";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import type { Db } from "~/db/client.server";
import { webhookDeliveries, webhookEndpoints } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { logger } from "~/lib/logger.server";
import { guardedLookup, isPublicAddress } from "./address.server";
import { webhookDisabled } from "./changes.server";
import { PING_EVENT, WEBHOOK_EVENTS } from "./schema";
import { DELIVERY_HEADER, EVENT_HEADER, openWebhookSecret, sealWebhookSecret, SIGNATURE_HEADER, signatureHeader } from "./signing.server";

/**
 * Webhook deliveries (decision 057): one more consumer of change events (decision 048).
 *
 * - `webhooksHandler`, a change handler, runs in the dispatch transaction of every change of a
 *   subscribable type: for each enabled endpoint of the change's entity subscribed to it, it writes a
 *   delivery (its body fixed once: `{ id, type, createdAt, entityId, data }`) and enqueues its job, both
 *   in that transaction: once per change and endpoint, or not at all.
 * - `webhookDeliveryJob` makes one attempt: a signed POST (signing.server.ts) with a 10 s time limit to
 *   an address checked again now (address.server.ts), the answer recorded (status, the start of the body,
 *   the time taken). A 2xx answer succeeds; anything else is tried again after 10 s, 1 min, 5 min,
 *   30 min and 2 h (6 attempts in all, by jobs scheduled for then), and then the delivery has failed.
 * - An endpoint whose deliveries failed DISABLE_AFTER_FAILED_DELIVERIES times in a row (every attempt of
 *   each spent) is disabled, and the entity's administrators are told (the `webhook.disabled` change and
 *   its notification). A success in between starts the count again; a test ping does not count.
 */
export const RETRY_DELAYS_SECONDS = [10, 60, 300, 1800, 7200] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;
export const REQUEST_TIMEOUT_MS = 10_000;
/** How much of an answer's body is kept (and read at most). */
const EXCERPT_CHARS = 500;
const READ_AT_MOST = 64 * 1024;

/** Whether the server may deliver to private addresses and plain http (WEBHOOKS_ALLOW_PRIVATE). */
export function allowPrivateTargets(): boolean {
  return config().WEBHOOKS_ALLOW_PRIVATE;
}

/** The body a receiver gets (docs/webhooks.md). */
export interface WebhookBody {
  id: string;
  type: string;
  createdAt: string;
  entityId: number;
  data: Record<string, unknown>;
}

/** Writes a delivery of `body` to an endpoint and enqueues its first attempt, in the caller's transaction. */
export async function queueDelivery(
  ctx: { db: Db; entityId: number },
  effects: Effects,
  endpointId: number,
  body: WebhookBody,
  options: { changeId: number | null; maxAttempts: number },
): Promise<number> {
  const [row] = await ctx.db
    .insert(webhookDeliveries)
    .values({
      entityId: ctx.entityId,
      endpointId,
      publicId: body.id,
      eventType: body.type,
      changeId: options.changeId,
      payload: body as unknown as Record<string, unknown>,
      maxAttempts: options.maxAttempts,
    })
    .returning({ id: webhookDeliveries.id });
  await effects.enqueue(webhookDeliveryJob, { entityId: ctx.entityId, deliveryId: row.id });
  return row.id;
}

/** Every change of a subscribable type becomes a delivery per subscribed, enabled endpoint of its entity. */
export const webhooksHandler = defineChangeHandler({
  name: "webhooks",
  types: WEBHOOK_EVENTS,
  async handle(ctx, change, effects) {
    const endpoints = await ctx.db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.entityId, change.entityId), eq(webhookEndpoints.enabled, true), sql`${webhookEndpoints.events} @> array[${change.type}]::text[]`))
      .orderBy(webhookEndpoints.id);
    for (const endpoint of endpoints) {
      const body: WebhookBody = {
        id: randomUUID(),
        type: change.type,
        createdAt: change.createdAt.toISOString(),
        entityId: change.entityId,
        data: (change.payload ?? {}) as Record<string, unknown>,
      };
      await queueDelivery({ db: ctx.db, entityId: change.entityId }, effects, endpoint.id, body, { changeId: change.id, maxAttempts: MAX_ATTEMPTS });
    }
  },
});

/** What one attempt got: an answer (any status), or no answer and why. */
export interface AttemptResult {
  statusCode: number | null;
  excerpt: string | null;
  durationMs: number;
  error: string | null;
}

/**
 * One signed POST of `body` to `url`. The host is checked here, at every attempt: an IP literal at
 * once, a name by the connection's lookup (the address connected to is the address checked). Redirects
 * are not followed (a 3xx is an answer that is not a success).
 */
export async function postSigned(url: string, body: string, headers: Record<string, string>, options: { allowPrivate: boolean; timeoutMs?: number }): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  if (!options.allowPrivate && target.protocol !== "https:") return { statusCode: null, excerpt: null, durationMs: 0, error: "refused: only https:// URLs (WEBHOOKS_ALLOW_PRIVATE is off)" };
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (!options.allowPrivate && isIP(host) && !isPublicAddress(host)) {
    return { statusCode: null, excerpt: null, durationMs: 0, error: `refused: ${host} is not a public address (WEBHOOKS_ALLOW_PRIVATE is off)` };
  }
  const client = target.protocol === "https:" ? https : http;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const done = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), "User-Agent": "Caretaker-Webhooks/1", ...headers },
        lookup: guardedLookup(options.allowPrivate),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < READ_AT_MOST) chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_AT_MOST) response.destroy();
        });
        const finish = () => {
          const text = Buffer.concat(chunks).toString("utf8").replaceAll("\u0000", "");
          done({ statusCode: response.statusCode ?? null, excerpt: text.slice(0, EXCERPT_CHARS), durationMs: elapsed(), error: null });
        };
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      done({ statusCode: null, excerpt: null, durationMs: elapsed(), error: (error.message || error.code || "request failed").slice(0, 500) });
    });
    request.end(body);
  });
}

/** What a delivery records when the endpoint's stored secret cannot be opened (decision 057). */
export const UNREADABLE_SECRET = "the endpoint's secret cannot be read with this server's key (SECRETS_KEY or SESSION_SECRET changed): rotate the secret";

/** The endpoint's secret in clear, or null when this server's key does not open it. */
function readableSecret(stored: string, entityId: number): string | null {
  try {
    return openWebhookSecret(stored, entityId).secret;
  } catch (error) {
    if (error instanceof UnreadableSecretError) {
      logger().warn({ entityId }, "a webhook endpoint's secret cannot be opened with this server's key");
      return null;
    }
    throw error;
  }
}

/**
 * Seals again with the current key the endpoints' secrets stored in clear (written before decision 057)
 * or sealed with a previous key (SECRETS_KEY_PREVIOUS, or SESSION_SECRET before SECRETS_KEY was set),
 * once at start. Each row is changed only if it still holds the value read, so processes starting
 * together do it once. Secrets no key opens are left as they are (their deliveries say so).
 */
export async function resealWebhookSecrets(db: Db): Promise<{ resealed: number; unreadable: number }> {
  // tenant-scope: across entities, secrets are resealed for every entity once at start
  const rows = await db
    .select({ id: webhookEndpoints.id, entityId: webhookEndpoints.entityId, secret: webhookEndpoints.secret })
    .from(webhookEndpoints);
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    let opened: { secret: string; current: boolean };
    try {
      opened = openWebhookSecret(row.secret, row.entityId);
    } catch (error) {
      if (!(error instanceof UnreadableSecretError)) throw error;
      unreadable++;
      continue;
    }
    if (opened.current) continue;
    const changed = await db
      .update(webhookEndpoints)
      .set({ secret: sealWebhookSecret(opened.secret, row.entityId) })
      .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.entityId, row.entityId), eq(webhookEndpoints.secret, row.secret)))
      .returning({ id: webhookEndpoints.id });
    resealed += changed.length;
  }
  return { resealed, unreadable };
}

const DeliveryPayload = z.object({ entityId: z.number().int().positive(), deliveryId: z.number().int().positive() });

/** One attempt of one delivery; the next one, if any, is a job of its own scheduled after its delay. */
export const webhookDeliveryJob = defineJob({
  name: "webhook-delivery",
  payload: DeliveryPayload,
  // The attempts are counted by the delivery itself; the queue retries only a failure to record one.
  retryLimit: 2,
  async handler({ entityId, deliveryId }, job) {
    await attemptDelivery(job.services, entityId, deliveryId);
  },
});

/**
 * Makes the next attempt of a pending delivery and records it (see the module's comment). A delivery
 * that is no longer pending, or whose endpoint is gone, is left as it is; one whose endpoint was disabled
 * meanwhile fails without an attempt (a ping is still sent).
 */
export async function attemptDelivery(services: ContextServices, entityId: number, deliveryId: number): Promise<void> {
  const ctx = await entitySystemContext(services, entityId, "webhook-delivery");
  const [found] = await ctx.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.id, webhookDeliveries.endpointId), eq(webhookEndpoints.entityId, webhookDeliveries.entityId)))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.entityId, entityId)));
  if (!found || found.delivery.status !== "pending") return;
  const { delivery, endpoint } = found;
  const ping = delivery.eventType === PING_EVENT;
  if (!endpoint.enabled && !ping) {
    await ctx.db
      .update(webhookDeliveries)
      .set({ status: "failed", finishedAt: new Date(now()), nextAttemptAt: null, lastError: "endpoint disabled" })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.entityId, entityId)));
    return;
  }
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(now() / 1000);
  const secret = readableSecret(endpoint.secret, entityId);
  // A secret this server's key no longer opens: the attempt fails without a POST (an unsigned or wrongly
  // signed delivery would be refused anyway), saying what to do.
  const result: AttemptResult =
    secret === null
      ? { statusCode: null, excerpt: null, durationMs: 0, error: UNREADABLE_SECRET }
      : await postSigned(
          endpoint.url,
          body,
          { [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, body), [EVENT_HEADER]: delivery.eventType, [DELIVERY_HEADER]: delivery.publicId },
          { allowPrivate: allowPrivateTargets() },
        );
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const attempts = delivery.attempts + 1;
  const final = succeeded || attempts >= delivery.maxAttempts;
  const delay = RETRY_DELAYS_SECONDS[Math.min(attempts - 1, RETRY_DELAYS_SECONDS.length - 1)];
  await withTx(ctx, async (tx, effects) => {
    await tx.db
      .update(webhookDeliveries)
      .set({
        attempts,
        status: succeeded ? "succeeded" : final ? "failed" : "pending",
        lastStatusCode: result.statusCode,
        lastResponse: result.excerpt,
        lastDurationMs: result.durationMs,
        lastError: result.error ?? (succeeded ? null : `answered ${result.statusCode}`),
        nextAttemptAt: final ? null : new Date(now() + delay * 1000),
        finishedAt: final ? new Date(now()) : null,
      })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.entityId, entityId)));
    if (!final) {
      await effects.enqueue(webhookDeliveryJob, { entityId, deliveryId }, { startAfterSeconds: delay });
      return;
    }
    if (ping) return;
    if (succeeded) {
      await tx.db
        .update(webhookEndpoints)
        .set({ consecutiveFailures: 0 })
        .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.entityId, entityId), sql`${webhookEndpoints.consecutiveFailures} <> 0`));
      return;
    }
    const [counted] = await tx.db
      .update(webhookEndpoints)
      .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
      .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.entityId, entityId)))
      .returning({ failures: webhookEndpoints.consecutiveFailures, enabled: webhookEndpoints.enabled, name: webhookEndpoints.name });
    if (!counted || !counted.enabled || counted.failures < DISABLE_AFTER_FAILED_DELIVERIES) return;
    await tx.db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: "failures", disabledAt: new Date(now()), updatedAt: new Date(now()) })
      .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.entityId, entityId)));
    await effects.audit({ action: "webhook.disable", recordType: "webhook", recordId: endpoint.id, details: { reason: "failures", failedDeliveries: counted.failures } });
    await effects.emit(webhookDisabled, { endpointId: endpoint.id, name: counted.name, failedDeliveries: counted.failures });
    logger().warn({ entityId, endpointId: endpoint.id, failures: counted.failures }, "webhook endpoint disabled after failed deliveries");
  });
}

const RETENTION_BATCH = 5000;

/**
 * Removes the finished deliveries (succeeded or failed) made more than `days` ago, in every entity, a
 * batch at a time so no statement holds many rows; pending ones stay until their last attempt. The
 * endpoints' failure counts live on the endpoints, so nothing else depends on old deliveries.
 */
export async function pruneWebhookDeliveries(services: Pick<ContextServices, "db">, days: number): Promise<{ removed: number }> {
  let removed = 0;
  for (;;) {
    // tenant-scope: across entities, retention removes old deliveries of every entity
    const batch = services.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(sql`${webhookDeliveries.status} <> 'pending'`, sql`${webhookDeliveries.createdAt} < now() - make_interval(days => ${days})`))
      .orderBy(webhookDeliveries.id)
      .limit(RETENTION_BATCH);
    // tenant-scope: across entities, retention runs for every entity by design
    const gone = await services.db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, batch)).returning({ id: webhookDeliveries.id });
    removed += gone.length;
    if (gone.length < RETENTION_BATCH) return { removed };
  }
}

export const webhookRetentionJob = defineJob({
  name: "webhook-retention",
  payload: z.object({ days: z.number().int().min(1).max(36_500) }),
  retryLimit: 3,
  async handler(payload, job) {
    const result = await pruneWebhookDeliveries(job.services, payload.days);
    logger().info({ ...result, days: payload.days }, "old webhook deliveries removed");
  },
});

/**
 * Every night at 03:45, Brussels time (decision 020): the deliveries older than `days`
 * (WEBHOOK_DELIVERY_RETENTION_DAYS, read at start) are removed.
 */
export function webhookRetentionSchedule(days: number) {
  return defineSchedule({ name: "webhook-retention", job: webhookRetentionJob, payload: { days }, cron: "45 3 * * *" });
}
