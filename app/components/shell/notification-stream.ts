import { readEventStream } from "~/lib/event-stream";

/**
 * The browser side of the live notification stream (GET /resources/notifications/stream, decision
 * 028), read with fetch and eventsource-parser rather than EventSource: the request carries the
 * session cookie (or a bearer token) and Last-Event-ID, and reconnecting is in our hands. After a
 * drop, a server restart or a failed answer it reconnects after the server's `retry` (2 s) doubled
 * per failed attempt up to 30 s, with jitter (half to all of it), so that a restarted server is not
 * hit by every tab at once; the first event of a new connection resets the back-off. A 401 (signed
 * out) stops it; it also reconnects at once when the browser comes back online.
 */
export interface StreamNotification {
  id: number;
  notificationDetailsId: number;
  type: number;
  read: boolean;
  creationDate: string;
  subject: string;
  message: Record<string, unknown>;
  incidentId: number | null;
}

export interface StreamHandlers {
  onNotification(notification: StreamNotification): void;
  onCount(count: { unread: number; total: number }): void;
}

export interface StreamOptions extends StreamHandlers {
  url?: string;
  /** Tests: replace fetch, the clock and the dice. */
  fetch?: typeof fetch;
  random?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  maxDelayMs?: number;
}

export const STREAM_URL = "/resources/notifications/stream";

/** The wait before reconnection attempt `attempt` (1, 2, ...): retry doubled per attempt, capped, with jitter. */
export function backoffDelay(attempt: number, retryMs: number, random: () => number, maxMs = 30_000): number {
  const base = Math.min(maxMs, retryMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + (random() * base) / 2);
}

/** Opens the stream; returns the function that closes it for good. */
export function openNotificationStream(options: StreamOptions): () => void {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const random = options.random ?? Math.random;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as number));
  let lastEventId: string | null = null;
  let retryMs = 2_000;
  let attempt = 0;
  let stopped = false;
  let timer: unknown = null;
  let controller: AbortController | null = null;

  const connect = async () => {
    timer = null;
    if (stopped) return;
    controller = new AbortController();
    try {
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (lastEventId) headers["Last-Event-ID"] = lastEventId;
      const res = await doFetch(options.url ?? STREAM_URL, { headers, credentials: "same-origin", cache: "no-store", signal: controller.signal });
      if (res.status === 401) {
        stopped = true;
        return;
      }
      if (!res.ok || !res.body || !(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        throw new Error(`notification stream: ${res.status}`);
      }
      await readEventStream(res.body, {
        onRetry: (ms) => {
          retryMs = ms;
        },
        onEvent: (message) => {
          attempt = 0;
          if (message.id) lastEventId = message.id;
          try {
            if (message.event === "notification") options.onNotification(JSON.parse(message.data) as StreamNotification);
            else if (message.event === "count") options.onCount(JSON.parse(message.data) as { unread: number; total: number });
          } catch {
            /* a malformed event is skipped */
          }
        },
      });
    } catch {
      /* dropped, refused or aborted: reconnect below unless stopped */
    }
    schedule();
  };
  const schedule = () => {
    if (stopped || timer !== null) return;
    attempt += 1;
    timer = setTimer(() => void connect(), backoffDelay(attempt, retryMs, random, options.maxDelayMs));
  };
  const online = () => {
    if (stopped || timer === null) return;
    clearTimer(timer);
    timer = null;
    void connect();
  };
  if (typeof window !== "undefined") window.addEventListener("online", online);
  void connect();
  return () => {
    stopped = true;
    if (timer !== null) clearTimer(timer);
    controller?.abort();
    if (typeof window !== "undefined") window.removeEventListener("online", online);
  };
}
