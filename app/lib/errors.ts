/**
 * Typed domain errors thrown by services. Each transport maps them once: route actions to form
 * errors or error pages, REST routes to a status and a JSON body. `code` is a stable machine code,
 * `messageKey` an i18n key the transport translates.
 */
export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    public readonly code: string,
    public readonly messageKey: string,
    public readonly status: number,
    public readonly fieldErrors?: FieldErrors,
  ) {
    super(code);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  constructor(messageKey = "errors.notFound.generic", code = "NOT_FOUND") {
    super(code, messageKey, 404);
  }
}

export class ForbiddenError extends DomainError {
  constructor(messageKey = "errors.forbidden", code = "FORBIDDEN") {
    super(code, messageKey, 403);
  }
}

export class ConflictError extends DomainError {
  constructor(messageKey: string, code = "CONFLICT", fieldErrors?: FieldErrors) {
    super(code, messageKey, 409, fieldErrors);
  }
}

export class ValidationError extends DomainError {
  constructor(fieldErrors: FieldErrors, messageKey = "errors.validation", code = "VALIDATION") {
    super(code, messageKey, 400, fieldErrors);
  }
}

/**
 * The database did not answer (restarting, stopped, the connection cut): the request was not at fault
 * and may be tried again shortly. Transports answer 503 with a Retry-After.
 */
export class ServiceUnavailableError extends DomainError {
  constructor(messageKey = "errors.temporarilyUnavailable", code = "SERVICE_UNAVAILABLE") {
    super(code, messageKey, 503);
  }
}

/**
 * The data folder is full (or over its quota): the request was not at fault, and nothing of it was
 * kept (the partial file is removed, no row written). 507 Insufficient Storage.
 */
export class InsufficientStorageError extends DomainError {
  constructor(messageKey = "errors.file.diskFull", code = "INSUFFICIENT_STORAGE") {
    super(code, messageKey, 507);
  }
}

export function isDiskFullError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof InsufficientStorageError) return true;
    const code = (e as { code?: unknown }).code;
    if (code === "ENOSPC" || code === "EDQUOT") return true;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again after a 503. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATEs and socket errors that mean the database went away, not that the statement was wrong:
 * class 08 (connection exception), 57P01-57P03 (the server is shutting down, crashed or starting),
 * refused, reset or broken connections, and node-postgres's own words for a connection it lost or a
 * pool already closed.
 */
const UNAVAILABLE_CODES = /^(08[0-9A-Z]{3}|57P0[1-3]|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTCONN|ECONNABORTED)$/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|Cannot use a pool after calling end|Client was closed and is not queryable|timeout exceeded when trying to connect|the database system is (starting up|shutting down)/i;

export function isDatabaseUnavailableError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ServiceUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && UNAVAILABLE_CODES.test(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/**
 * SQLSTATE classes that only bad input causes: 22 (data exception: a NUL byte in text, a number out
 * of range, an invalid date) and 54 (a value too large for an index). Drizzle wraps driver errors, so
 * the cause chain is searched.
 */
export function isInputDatabaseError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^(22|54)[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

/** A domain error for what a transport caught: domain errors as they are, input errors from the database as 400. */
export function asDomainError(error: unknown): DomainError | null {
  if (isDomainError(error)) return error;
  if (isInputDatabaseError(error)) return new ValidationError({}, "errors.invalidInput", "INVALID_INPUT");
  if (isDatabaseUnavailableError(error)) return new ServiceUnavailableError();
  if (isDiskFullError(error)) return new InsufficientStorageError();
  return null;
}
