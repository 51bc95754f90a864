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
  return null;
}
