import { createParser, type ParserCallbacks } from "eventsource-parser";

/**
 * Feeds a server-sent-events byte stream to eventsource-parser until the stream ends. Rejects when the
 * stream breaks off or its request is aborted; the caller decides whether that is the end (a test) or
 * a reason to reconnect (the bell's client).
 */
export async function readEventStream(body: ReadableStream<Uint8Array>, callbacks: ParserCallbacks): Promise<void> {
  const parser = createParser(callbacks);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}
