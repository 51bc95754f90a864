import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import pg from "pg";
import { logger } from "~/lib/logger.server";

/**
 * Live events for the server-sent-events route: published by verbs after their transaction commits
 * (`effects.publish`), delivered to the subscribers of the event's entity. On the embedded database
 * they stay in this process (PGlite serves one process); on PostgreSQL they cross processes through
 * LISTEN/NOTIFY (`createPgEventBus`, decision 028), so every app instance behind a load balancer
 * delivers them to its own streams.
 */
export interface LiveEvent {
  entityId: number;
  /** What happened, e.g. "incident.created", "notification.created". */
  type: string;
  /** Only these users receive it; everyone of the entity when absent. */
  userIds?: number[];
  data?: Record<string, unknown>;
}

export interface EventBus {
  publish(event: LiveEvent): void;
  /** Calls `listener` for every event of the entity; returns the unsubscribe function. */
  subscribe(entityId: number, listener: (event: LiveEvent) => void): () => void;
}

/** A bus holding a connection: closed at shutdown. */
export interface ClosableEventBus extends EventBus {
  /** Resolves once the bus delivers events from other processes (at once in process). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Sent to every subscriber of every entity after the cross-process listener reconnected: events of
 * other processes published while it was down are lost, so a subscriber re-reads its state.
 */
export const RESYNC_EVENT = "bus.resync";

/** The PostgreSQL NOTIFY channel every app process listens on. */
export const EVENTS_CHANNEL = "caretaker_events";
/** The listening connection's application_name (seen in pg_stat_activity). */
export const LISTENER_NAME = "caretaker-live-events";
/** NOTIFY payloads are limited to 8000 bytes; a larger event travels without its `data`. */
const MAX_PAYLOAD = 7_900;

function localEmitter() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const name = (entityId: number) => `entity:${entityId}`;
  return {
    emit(event: LiveEvent) {
      emitter.emit(name(event.entityId), event);
    },
    subscribe(entityId: number, listener: (event: LiveEvent) => void) {
      emitter.on(name(entityId), listener);
      return () => {
        emitter.off(name(entityId), listener);
      };
    },
    /** Every entity with a subscriber in this process. */
    entities(): number[] {
      return emitter.eventNames().map((n) => Number(String(n).slice("entity:".length)));
    },
  };
}

/** The in-process bus (embedded database, tests). */
export function createEventBus(): ClosableEventBus {
  const local = localEmitter();
  return {
    publish: (event) => local.emit(event),
    subscribe: (entityId, listener) => local.subscribe(entityId, listener),
    ready: Promise.resolve(),
    close: async () => undefined,
  };
}

export interface PgEventBusOptions {
  /** The PostgreSQL connection string: the listener holds one connection of its own. */
  url: string;
  /**
   * Sends NOTIFYs, in order, in one round trip (the app's pool); defaults to a query on the listener's
   * connection string. `NOTIFY_ALL_SQL` is that statement.
   */
  notify?: (channel: string, payloads: string[]) => Promise<unknown>;
  channel?: string;
  /** First reconnection delay; doubles up to 5 s. */
  retryMs?: number;
}

/** One statement that sends every payload on the channel, in order. */
export const NOTIFY_ALL_SQL = "select pg_notify($1, p) from unnest($2::text[]) with ordinality as t(p, n) order by n";

/**
 * The cross-process bus: `publish` delivers to this process's subscribers at once and sends a NOTIFY
 * on one channel; a dedicated connection LISTENs and delivers other processes' events (its own are
 * recognised by the process tag and skipped). The listening connection reconnects with back-off when
 * it drops and then sends RESYNC_EVENT to every local subscriber.
 */
export function createPgEventBus(options: PgEventBusOptions): ClosableEventBus {
  const log = logger();
  const local = localEmitter();
  const origin = randomUUID();
  const channel = options.channel ?? EVENTS_CHANNEL;
  const firstDelay = options.retryMs ?? 100;
  let fallbackPool: pg.Pool | null = null;
  const notify =
    options.notify ??
    ((ch: string, payloads: string[]) => {
      if (!fallbackPool) {
        fallbackPool = new pg.Pool({ connectionString: options.url, max: 2 });
        fallbackPool.on("error", () => undefined);
      }
      return fallbackPool.query(NOTIFY_ALL_SQL, [ch, payloads]);
    });

  // One NOTIFY statement in flight at a time; what is published meanwhile goes out together in the next
  // one (under load, one round trip for many events instead of one each). Each payload carries a
  // sequence number: PostgreSQL drops a notification that repeats another of the same statement.
  let sequence = 0;
  let pending: { payload: string; type: string }[] = [];
  let sending = false;
  const flush = () => {
    if (sending || pending.length === 0) return;
    const batch = pending;
    pending = [];
    sending = true;
    notify(
      channel,
      batch.map((b) => b.payload),
    )
      .catch((err: unknown) => log.error({ err, types: batch.map((b) => b.type) }, "live event: NOTIFY failed"))
      .finally(() => {
        sending = false;
        flush();
      });
  };

  let client: pg.Client | null = null;
  let closed = false;
  let delay = firstDelay;
  let timer: NodeJS.Timeout | null = null;
  let connectedOnce = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== channel || !message.payload) return;
    try {
      const { o, e } = JSON.parse(message.payload) as { o: string; e: LiveEvent };
      if (o !== origin) local.emit(e);
    } catch (err) {
      log.warn({ err }, "live event: unreadable notification");
    }
  };

  const connect = async () => {
    timer = null;
    if (closed) return;
    const next = new pg.Client({ connectionString: options.url, application_name: LISTENER_NAME });
    const lost = (err?: Error) => {
      if (client !== next) return;
      client = null;
      next.removeAllListeners("notification");
      next.end().catch(() => undefined);
      if (closed) return;
      log.warn({ err, retryInMs: delay }, "live events: the listening connection dropped");
      schedule();
    };
    next.on("error", lost);
    next.on("end", () => lost());
    next.on("notification", onNotification);
    try {
      client = next;
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      if (client === next) lost(err as Error);
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    delay = firstDelay;
    if (connectedOnce) {
      log.info("live events: listening again");
      for (const entityId of local.entities()) local.emit({ entityId, type: RESYNC_EVENT });
    }
    connectedOnce = true;
    markReady();
  };
  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, 5_000);
  };
  void connect();

  return {
    ready,
    publish(event) {
      local.emit(event);
      const s = ++sequence;
      let payload = JSON.stringify({ o: origin, s, e: event });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = JSON.stringify({ o: origin, s, e: { ...event, data: undefined } });
      pending.push({ payload, type: event.type });
      flush();
    },
    subscribe: (entityId, listener) => local.subscribe(entityId, listener),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
      await fallbackPool?.end().catch(() => undefined);
    },
  };
}
