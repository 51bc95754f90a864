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
