import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { isLocale } from "~/i18n";
import { detectLocale, i18nFor } from "~/i18n.server";
import { keptAnswersState } from "~/core/kept-answers.server";
import { type PublicPageRequest, reportPageCacheKey } from "~/http/report-page.server";
import { logger } from "~/lib/logger.server";
import { NonceProvider } from "~/lib/nonce";
import { resolveSession } from "~/modules/auth/session.server";
import { runtime } from "~/runtime.server";

export { needsPreparation, prepareData, readiness, runtime as boot, shutdown } from "~/runtime.server";
export { secureBuild } from "~/http/gate.server";

/** The report page's key in the public page cache (server/page-cache.ts, decision 019) and its entity, or null. */
export async function publicPageKey(req: PublicPageRequest): Promise<{ key: string; entityId: number } | null> {
  const rt = await runtime();
  return reportPageCacheKey(req, { db: rt.database.db, rateLimitMultiplier: rt.config.RATE_LIMIT_MULTIPLIER });
}

/** A mark taken before a page is read, and whether what was read after it is still fresh (decision 019). */
export function keptStamp(): number {
  return keptAnswersState().stamp();
}
export function keptIsFresh(entityId: number, stamp: number): boolean {
  return keptAnswersState().isFresh(entityId, stamp);
}

/** Where the server's request limits count: shared by every process on PostgreSQL, memory otherwise. */
export { sharedLimitStore as limitStore } from "~/core/shared-limits.server";

/**
 * What server.ts's getLoadContext gives every loader and action: the runtime, and the request's
 * session resolved once (refreshed when near expiry); `setCookie` must reach the browser.
 */
export async function requestContext(cookieHeader: string | null, method = "GET") {
  const rt = await runtime();
  // Reads (GET, HEAD) get the shell's data with the session check: one query for the three.
  const { state, setCookie } = await resolveSession(rt.auth, cookieHeader, { shell: method === "GET" || method === "HEAD" });
  return { runtime: rt, auth: state, setCookie };
}

/**
 * What Remix reports of a failed loader, action or render. A refusal the router answers itself (405 for a
 * POST to a screen without an action, 404) is the client's mistake, answered with its status: not logged
 * as an error. A request the client abandoned is not either. Everything else is logged once, with its
 * address.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logger().error({ err: error, method: request.method, path: new URL(request.url).pathname }, "request failed");
}

const ABORT_DELAY = 10_000;
export const streamTimeout = ABORT_DELAY;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  const rootData = remixContext.staticHandlerContext.loaderData?.root as { locale?: string } | undefined;
  // The root loader decides the language; when it did not run (an error before it), detect it here.
  const locale = isLocale(rootData?.locale) ? rootData.locale : await detectLocale(request);

  // No loader defers data, so a document is rendered whole and sent as one buffer (decision 019): React
  // streams it in hundreds of small chunks, and passing each through a web stream and the compressor
  // cost more server time than rendering the page. One buffer is compressed once and gets a
  // Content-Length; bots and no-JavaScript browsers get the same complete document.
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Stops a render that hangs; cleared when the document is done, so no finished request's render
    // stays reachable from a pending timer.
    const timer = setTimeout(() => abort(), ABORT_DELAY + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={i18nFor(locale)}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const chunks: Buffer[] = [];
          const collector = new Writable({
            // React aborts the render when its destination closes, and ending the finished stream again
            // made a Node error (with its stack trace) on every page: the collector never closes.
            emitClose: false,
            autoDestroy: false,
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timer);
              const html = Buffer.concat(chunks);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              responseHeaders.set("Content-Length", String(html.byteLength));
              resolve(new Response(new Uint8Array(html.buffer, html.byteOffset, html.byteLength), { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(collector);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
