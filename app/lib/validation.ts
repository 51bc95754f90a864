import type { z } from "zod";
import { type FieldErrors, ValidationError } from "./errors";

/**
 * Validates input against a zod schema; the issues become a ValidationError whose field errors are
 * keyed by the dotted path and hold the schemas' message keys. Services and the REST transport share it.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  throw new ValidationError(fieldErrors);
}
