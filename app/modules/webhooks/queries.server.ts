import { and, count, desc, eq, lt, sql } from "drizzle-orm";
import { config } from "~/config.server";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { webhookDeliveries, webhookEndpoints } from "~/db/schema";
import { subquery } from "~/db/subquery";
import { NotFoundError } from "~/lib/errors";

/**
 * The reads of the webhooks screens (decision 057), administrators only (`webhook: read`), each filtered
 * by the entity. The secret never leaves the verbs that make it (shown once).
 */
export const webhookNotFound = () => new NotFoundError("webhooks:errors.notFound", "WEBHOOK_NOT_FOUND");

export interface WebhookDeliverySummary {
  id: number;
  publicId: string;
  eventType: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastResponse: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface WebhookView {
  id: number;
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  consecutiveFailures: number;
  createdAt: Date;
  updatedAt: Date;
  lastDelivery: Pick<WebhookDeliverySummary, "id" | "eventType" | "status" | "lastStatusCode" | "createdAt"> | null;
}

const endpointColumns = {
  id: webhookEndpoints.id,
  name: webhookEndpoints.name,
  url: webhookEndpoints.url,
  events: webhookEndpoints.events,
  enabled: webhookEndpoints.enabled,
  disabledReason: webhookEndpoints.disabledReason,
  disabledAt: webhookEndpoints.disabledAt,
  consecutiveFailures: webhookEndpoints.consecutiveFailures,
  createdAt: webhookEndpoints.createdAt,
  updatedAt: webhookEndpoints.updatedAt,
  lastDelivery: sql<WebhookView["lastDelivery"]>`${subquery
    .select({
      last: sql`json_build_object('id', ${webhookDeliveries.id}, 'eventType', ${webhookDeliveries.eventType}, 'status', ${webhookDeliveries.status},
        'lastStatusCode', ${webhookDeliveries.lastStatusCode}, 'createdAt', ${webhookDeliveries.createdAt})`,
    })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.entityId, webhookEndpoints.entityId), eq(webhookDeliveries.endpointId, webhookEndpoints.id)))
    .orderBy(desc(webhookDeliveries.id))
    .limit(1)}`,
};

function withDates(row: WebhookView): WebhookView {
  const last = row.lastDelivery;
  return { ...row, lastDelivery: last ? { ...last, createdAt: new Date(last.createdAt) } : null };
}

/** The entity's endpoints, oldest first, each with its last delivery. */
export async function listWebhooks(ctx: ServiceContext): Promise<WebhookView[]> {
  assertCan(ctx.actor, "read", "webhook");
  const rows = await ctx.db.select(endpointColumns).from(webhookEndpoints).where(eq(webhookEndpoints.entityId, ctx.entityId)).orderBy(webhookEndpoints.id);
  return rows.map(withDates);
}

/** One endpoint of the entity; NotFound for an unknown id or another entity's. */
export async function getWebhook(ctx: ServiceContext, id: number): Promise<WebhookView> {
  assertCan(ctx.actor, "read", "webhook");
  const [row] = await ctx.db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.entityId, ctx.entityId)));
  if (!row) throw webhookNotFound();
  return withDates(row);
}

export const DELIVERIES_PAGE_SIZE = 20;

export interface DeliveriesPage {
  rows: WebhookDeliverySummary[];
  /** The id to ask for the next (older) page with, or null on the last one. */
  nextBefore: number | null;
  /** Days a finished delivery is kept (WEBHOOK_DELIVERY_RETENTION_DAYS): older ones are removed nightly. */
  keptDays: number;
}

/**
 * An endpoint's deliveries, newest first, a page at a time by keyset (`before`: the last id of the page
 * before), so a deep page costs what the first one does.
 */
export async function listWebhookDeliveries(ctx: ServiceContext, endpointId: number, options: { before?: number | null; size?: number } = {}): Promise<DeliveriesPage> {
  await getWebhook(ctx, endpointId);
  const size = options.size ?? DELIVERIES_PAGE_SIZE;
  const rows = await ctx.db
    .select({
      id: webhookDeliveries.id,
      publicId: webhookDeliveries.publicId,
      eventType: webhookDeliveries.eventType,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      maxAttempts: webhookDeliveries.maxAttempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      lastResponse: webhookDeliveries.lastResponse,
      lastDurationMs: webhookDeliveries.lastDurationMs,
      lastError: webhookDeliveries.lastError,
      createdAt: webhookDeliveries.createdAt,
      finishedAt: webhookDeliveries.finishedAt,
    })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.entityId, ctx.entityId),
        eq(webhookDeliveries.endpointId, endpointId),
        options.before ? lt(webhookDeliveries.id, options.before) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(size + 1);
  const page = rows.slice(0, size);
  return { rows: page, nextBefore: rows.length > size ? page[page.length - 1].id : null, keptDays: config().WEBHOOK_DELIVERY_RETENTION_DAYS };
}

/** How many endpoints the entity has (the administration hub's card), with no permission check of its own. */
export async function countWebhooks(ctx: Pick<ServiceContext, "db" | "entityId">): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.entityId, ctx.entityId));
  return row?.n ?? 0;
}
