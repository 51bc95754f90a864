import type { AppLoadContext } from "@remix-run/node";
import { type EventBus, type LiveEvent, RESYNC_EVENT } from "~/core/events.server";
import { now } from "~/lib/clock.server";
import { logger } from "~/lib/logger.server";
import { authenticate, type AuthUser } from "~/modules/auth/service.server";
import { userDeactivated } from "~/modules/users/changes.server";
import { announcedIds, type LiveNotification, LIVE_PAGE_SIZE, liveReads, type StreamReads } from "~/modules/notifications/live.server";

/**
 * The live notification stream (GET /resources/notifications/stream, decision 028): server-sent
 * events for one signed-in user.
 *
 * - `event: notification`, `id:` the notification id, `data:` the notification (LiveNotification);
 * - `event: count`, `data: { unread, total }`, at the start and whenever the count may have changed;
 * - a comment every 25 s (proxies close idle connections), and `retry: 2000`.
 *
 * A live event is never trusted for content: the stream reads the database after it arrived (so after
 * the commit). An event naming its recipients and notification ids is read once per process for all
 * the streams it wakes (`eventSnapshot`: the rows by id, so one committed out of id order is not
 * skipped, and every recipient's count); otherwise (a publisher naming no ids, the bus reconnected)
 * the stream reads the user's notifications after the last id it sent. The replay of a reconnecting
 * client (`Last-Event-ID`, or `?lastEventId=`) is that read too, and every id is sent once (the
 * stream remembers the ids it sent), so none is lost or repeated across the replay/live boundary.
 * The stream subscribes before it reads, so nothing committed while it starts is missed. It ends (and
 * its subscription with it) at once when the client goes (the request's signal), when the user's
 * token expires (the client reconnects and the session is refreshed as on any request), when the
 * person is disabled or archived (`user.deactivated`: the reconnection is refused), or when a read
 * fails (the client reconnects and resumes).
 */
export const HEARTBEAT_MS = 25_000;
export const RETRY_MS = 2_000;

export interface StreamOptions {
  reads: StreamReads;
  events: EventBus;
  entityId: number;
  userId: number;
  /** The last notification id the client has, or null on a first connection (no replay). */
  lastEventId: number | null;
  signal: AbortSignal;
  heartbeatMs?: number;
  /** The stream ends after this many ms (the token's remaining life). */
  maxAgeMs?: number;
  /** Called once when the stream ends, for whatever reason. */
  onClose?: () => void;
}

const encoder = new TextEncoder();

function frame(event: string, data: unknown, id?: number): string {
  return `${id !== undefined ? `id: ${id}\n` : ""}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

type Addressed = LiveEvent & { userIds: number[] };

/**
 * What a live event asks of the user's stream: nothing; the shared read of the event (its announced
 * notifications and the recipients' counts, one read per process for all the streams it wakes); or a
 * read of the stream's own (after the bus reconnected, or from a publisher that names no ids).
 */
function classify(event: LiveEvent, userId: number): "none" | "shared" | { notifications: boolean } {
  if (event.type === RESYNC_EVENT) return { notifications: true };
  if (!event.type.startsWith("notification.")) return "none";
  if (event.userIds && !event.userIds.includes(userId)) return "none";
  const created = event.type === "notification.created";
  if (event.userIds && (!created || announcedIds(event))) return "shared";
  return { notifications: created };
}

/** How many sent ids a stream remembers (an id arriving twice, by the replay and an event, goes once). */
const REMEMBERED = 512;

export function notificationEventStream(options: StreamOptions): ReadableStream<Uint8Array> {
  const { reads: read, events, entityId, userId, signal } = options;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let cursor = options.lastEventId ?? 0;
  let wantNotifications = options.lastEventId !== null;
  let wantCount = true;
  let pumping: Promise<void> | null = null;
  const announced: Addressed[] = [];
  const sent = new Set<number>();
  const timers: NodeJS.Timeout[] = [];
  let unsubscribe: () => void = () => undefined;

  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };
  const close = () => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearTimeout(timer);
    unsubscribe();
    signal.removeEventListener("abort", close);
    try {
      controller.close();
    } catch {
      /* already closed or cancelled */
    }
    options.onClose?.();
  };

  const send = (notification: LiveNotification) => {
    if (sent.has(notification.id)) return;
    sent.add(notification.id);
    if (sent.size > REMEMBERED) sent.delete(sent.values().next().value!);
    write(frame("notification", notification, notification.id));
    cursor = Math.max(cursor, notification.id);
  };
  const pump = async () => {
    while (!closed && (announced.length > 0 || wantNotifications || wantCount)) {
      if (announced.length > 0) {
        let latest: unknown = null;
        for (const event of announced.splice(0)) {
          const snapshot = await read.snapshot(event);
          if (closed) return;
          for (const { userId: recipient, ...notification } of snapshot.rows) if (recipient === userId) send(notification);
          latest = snapshot.counts.get(userId) ?? latest;
        }
        if (latest && !wantCount) write(frame("count", latest));
      }
      if (wantNotifications) {
        wantNotifications = false;
        for (;;) {
          const page = await read.after(cursor, LIVE_PAGE_SIZE);
          if (closed) return;
          for (const notification of page) send(notification);
          if (page.length < LIVE_PAGE_SIZE) break;
        }
      }
      if (wantCount) {
        wantCount = false;
        const count = await read.count();
        write(frame("count", count));
      }
    }
  };
  const wake = () => {
    if (pumping || closed) return;
    pumping = pump()
      .catch((err: unknown) => {
        logger().error({ err }, "notification stream: a read failed; the client reconnects");
        close();
      })
      .finally(() => {
        pumping = null;
        if (!closed && (announced.length > 0 || wantNotifications || wantCount)) wake();
      });
  };

  return new ReadableStream<Uint8Array>({
    async start(c) {
      controller = c;
      if (signal.aborted) return close();
      signal.addEventListener("abort", close, { once: true });
      write(`retry: ${RETRY_MS}\n: connected\n\n`);
      // Subscribe first, then read: an event arriving meanwhile only asks for another read.
      unsubscribe = events.subscribe(entityId, (event) => {
        // The person was disabled or archived: their access ends now, not when the token expires.
        if (event.type === userDeactivated.type && event.data?.userId === userId) return close();
        const wanted = classify(event, userId);
        if (wanted === "none") return;
        if (wanted === "shared") announced.push(event as Addressed);
        else {
          wantNotifications ||= wanted.notifications;
          wantCount = true;
        }
        wake();
      });
      if (closed) return unsubscribe();
      if (options.lastEventId === null) {
        try {
          cursor = await read.latestId();
        } catch (err) {
          logger().error({ err }, "notification stream: could not start");
          return close();
        }
        // Anything that arrived while the newest id was read is at or below it, or after it.
        wantNotifications = true;
      }
      const heartbeat = options.heartbeatMs ?? HEARTBEAT_MS;
      const beat = () => {
        write(": ping\n\n");
        if (!closed) timers[0] = setTimeout(beat, heartbeat);
      };
      timers[0] = setTimeout(beat, heartbeat);
      if (options.maxAgeMs !== undefined) timers[1] = setTimeout(close, Math.max(options.maxAgeMs, 1_000));
      wake();
    },
    cancel() {
      close();
    },
  });
}

/** The open streams per user in this process (LIVE_STREAMS_PER_USER caps them). */
const openStreams = new Map<number, number>();

export function openStreamCount(userId?: number): number {
  if (userId !== undefined) return openStreams.get(userId) ?? 0;
  let total = 0;
  for (const n of openStreams.values()) total += n;
  return total;
}

/** Parses a Last-Event-ID: a positive integer, else none. */
export function parseLastEventId(request: Request): number | null {
  const raw = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId");
  if (!raw || !/^\d{1,15}$/.test(raw.trim())) return null;
  const id = Number(raw.trim());
  return id > 0 ? id : null;
}

/** The user of the stream: the session cookie's, or a bearer token's (the REST API's JWT). */
async function streamUser(request: Request, context: AppLoadContext): Promise<AuthUser | null> {
  if (context.auth.user) return context.auth.user;
  const token = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!token) return null;
  try {
    return await authenticate(context.runtime.auth, token);
  } catch {
    return null;
  }
}

const noStore = { "Cache-Control": "no-store" };

/** The route's loader: authenticates, caps, and answers the event stream. */
export async function notificationStreamResponse(request: Request, context: AppLoadContext): Promise<Response> {
  const user = await streamUser(request, context);
  if (!user) return Response.json({ code: "UNAUTHORIZED", message: "Unauthorized" }, { status: 401, headers: noStore });
  const rt = context.runtime;
  const cap = rt.config.LIVE_STREAMS_PER_USER ?? 5;
  const open = openStreams.get(user.id) ?? 0;
  if (open >= cap) {
    return Response.json({ code: "TOO_MANY_STREAMS", message: "Too many open streams" }, { status: 429, headers: { ...noStore, "Retry-After": "30" } });
  }
  openStreams.set(user.id, open + 1);
  const body = notificationEventStream({
    reads: liveReads(rt.database.db, user.entityId, user.id),
    events: rt.events,
    entityId: user.entityId,
    userId: user.id,
    lastEventId: parseLastEventId(request),
    // The connection's own signal: the loader's copy of the request may never abort (load-context.ts).
    signal: context.connectionClosed ?? request.signal,
    maxAgeMs: user.expiresAt - now(),
    onClose() {
      const n = (openStreams.get(user.id) ?? 1) - 1;
      if (n > 0) openStreams.set(user.id, n);
      else openStreams.delete(user.id);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
