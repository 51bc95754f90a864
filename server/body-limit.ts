import type { NextFunction, Request, Response } from "express";
import { refuse } from "./messages";
import { isAuthPath, routePath, takesBase64Files, takesOneBase64File } from "./paths";
import type { ServerSettings } from "./settings";

/**
 * Request bodies have a size limit per kind of route, enforced while the body is read (the app
 * streams bodies: nothing is buffered here):
 * - authentication, sign-up and password routes: 64 KiB;
 * - multipart uploads: FILES_PER_REQUEST files of UPLOAD_MAX_BYTES, plus 1 MiB of fields;
 * - the REST routes whose JSON carries base64 files: the same, times 4/3;
 * - the REST routes whose JSON carries one base64 file (PUT /api/users/{id}): one file, times 4/3;
 * - anything else (JSON, urlencoded forms): 1 MiB.
 * A declared Content-Length over the limit is answered 413 before a byte is read; a body without
 * one (chunked) is cut off with 413 as soon as it passes the limit. Both close the connection. A body
 * the app answered without reading is thrown away, within the same limit.
 */
export const KIB = 1024;
export const MIB = 1024 * KIB;
export const FILES_PER_REQUEST = 5;

export interface BodyLimits {
  auth: number;
  standard: number;
  multipart: number;
  base64Json: number;
  base64File: number;
}

export function bodyLimitsFor(settings: Pick<ServerSettings, "UPLOAD_MAX_BYTES">): BodyLimits {
  const files = settings.UPLOAD_MAX_BYTES * FILES_PER_REQUEST;
  return {
    auth: 64 * KIB,
    standard: MIB,
    multipart: files + MIB,
    base64Json: Math.ceil((files * 4) / 3) + MIB,
    base64File: Math.ceil((settings.UPLOAD_MAX_BYTES * 4) / 3) + MIB,
  };
}

export function bodyLimitOf(req: Request, limits: BodyLimits): number {
  const path = routePath(req.originalUrl);
  if (isAuthPath(path)) return limits.auth;
  if (/^multipart\/form-data\b/i.test(req.get("content-type") ?? "")) return limits.multipart;
  if (takesBase64Files(path)) return limits.base64Json;
  if (takesOneBase64File(path)) return limits.base64File;
  return limits.standard;
}

export class PayloadTooLargeError extends Error {
  readonly status = 413;
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
    this.name = "PayloadTooLargeError";
  }
}

/** How long a refused connection stays half-open so the client can read the 413. */
const LINGER_MS = 2000;

function tooLarge(req: Request, res: Response) {
  res.locals.bodyTooLarge = true;
  if (res.headersSent) return;
  res.setHeader("Connection", "close");
  lingerOnClose(req);
  refuse(req, res, 413, "payloadTooLarge");
}

/**
 * Node closes a `Connection: close` socket at once after the answer; with body bytes still arriving
 * that close becomes a reset, and a client busy sending often loses the 413 it was sent. Instead the
 * server half-closes (FIN after the answer) and lets the client hang up, for at most LINGER_MS.
 */
function lingerOnClose(req: Request) {
  const socket = req.socket;
  socket.destroySoon = function destroySoon(this: typeof socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
  };
}

/**
 * A body the app answered without reading whole (a 401, 403, 404 or 405, a redirect of an expired
 * session) is read and thrown away after the answer, as Node does for a body nobody touched, within the
 * route's limit. Remix reads a body through a stream that pauses the request once its buffer is full,
 * which Node counts as being read: without this the connection waited for a reader that never came, and
 * the client's next request on it hung, then was reset.
 */
function drainIfAnsweredUnread(req: Request, res: Response) {
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    req.removeAllListeners("data");
    req.resume();
  });
}

/** Ends a connection whose answer is sent or being sent: half-closed, then gone after LINGER_MS. */
function endAfterAnswer(req: Request) {
  lingerOnClose(req);
  req.socket.destroySoon();
}

export function bodyLimits(settings: Pick<ServerSettings, "UPLOAD_MAX_BYTES">) {
  const limits = bodyLimitsFor(settings);
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = req.headers["content-length"];
    if (declared === undefined && req.headers["transfer-encoding"] === undefined) return next();
    const limit = bodyLimitOf(req, limits);
    if (declared !== undefined && Number(declared) > limit) return tooLarge(req, res);
    countWhileRead(req, limit, () => tooLarge(req, res), () => res.headersSent);
    drainIfAnsweredUnread(req, res);
    next();
  };
}

/**
 * Counts the body's bytes as whoever reads the request receives them ('data' events, also emitted by
 * `read()`), without reading anything itself. Past the limit the chunk is withheld, the reader gets
 * an error (so a cut body is never taken for a whole one) and `over` answers. When the app had already
 * answered (`answered`: a body being thrown away) or nobody reads, the connection ends after the answer.
 */
function countWhileRead(req: Request, limit: number, over: () => void, answered: () => boolean) {
  let received = 0;
  let stopped = false;
  const emit = req.emit;
  req.emit = function (this: Request, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "data") {
      if (stopped) return false;
      received += (args[0] as { length: number }).length;
      if (received > limit) {
        stopped = true;
        req.pause();
        const readerLeft = answered();
        over();
        const error = new PayloadTooLargeError(limit);
        if (!readerLeft && req.listenerCount("error") > 0) emit.call(this, "error", error);
        else endAfterAnswer(req);
        return false;
      }
    }
    return emit.call(this, event, ...args);
  } as typeof req.emit;
}

/**
 * After the app: the reader of a cut body fails, and the app then tries to answer although the 413
 * is already sent. That failure is expected and ends here.
 */
export function bodyLimitErrors(error: unknown, _req: Request, res: Response, next: NextFunction) {
  if (res.locals.bodyTooLarge && res.headersSent) return;
  next(error);
}
