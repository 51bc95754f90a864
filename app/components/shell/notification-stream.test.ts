import { describe, expect, it } from "vitest";
import { backoffDelay, openNotificationStream, type StreamNotification } from "./notification-stream";

/** The browser side of the live stream: events, Last-Event-ID on reconnection, back-off with jitter, 401. */
function sse(text: string, status = 200): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });
  return new Response(body, { status, headers: { "Content-Type": "text/event-stream; charset=utf-8" } });
}

const notification = (id: number) => ({ id, notificationDetailsId: id, type: 1, read: false, creationDate: "", subject: `#${id}`, message: {}, incidentId: 7 });

describe("backoffDelay", () => {
  it("doubles the server's retry per failed attempt up to the cap, with jitter between half and all of it", () => {
    expect([1, 2, 3, 4].map((a) => backoffDelay(a, 2_000, () => 1))).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(backoffDelay(10, 2_000, () => 1)).toBe(30_000);
    expect(backoffDelay(1, 2_000, () => 0)).toBe(1_000);
    expect(backoffDelay(3, 2_000, () => 0.5)).toBe(6_000);
  });
});

describe("openNotificationStream", () => {
  it("hands on notifications and counts, reconnects after a drop with the last event id, stops on 401", async () => {
    const requests: Array<Record<string, string>> = [];
    const answers = [
      sse(`retry: 1000\n\nid: 4\nevent: notification\ndata: ${JSON.stringify(notification(4))}\n\nevent: count\ndata: {"unread":3,"total":9}\n\n`),
      new Response("down", { status: 503 }),
      sse(`id: 5\nevent: notification\ndata: ${JSON.stringify(notification(5))}\n\n`),
      new Response("{}", { status: 401 }),
    ];
    const received: StreamNotification[] = [];
    const counts: number[] = [];
    const delays: number[] = [];
    const timers: Array<() => void> = [];
    let calls = 0;
    openNotificationStream({
      url: "/stream",
      fetch: async (_url, init) => {
        requests.push({ ...(init?.headers as Record<string, string>) });
        return answers[calls++];
      },
      random: () => 1,
      setTimer: (fn, ms) => {
        delays.push(ms);
        timers.push(fn);
        return timers.length;
      },
      onNotification: (n) => received.push(n),
      onCount: (c) => counts.push(c.unread),
    });
    const settle = () => new Promise((r) => setTimeout(r, 10));
    for (let i = 0; i < 3; i++) {
      await settle();
      timers.shift()!();
    }
    await settle();
    expect(received.map((n) => n.id)).toEqual([4, 5]);
    expect(counts).toEqual([3]);
    expect(requests.map((h) => h["Last-Event-ID"] ?? null)).toEqual([null, "4", "4", "5"]);
    // After the stream ended: the server's retry; after a failed answer: doubled; after events: reset.
    expect(delays).toEqual([1_000, 2_000, 1_000]);
    expect(timers).toHaveLength(0);
  });
});
