/**
 * Input read only after the verb has authorized its actor. A transport whose input costs work to read
 * or may be invalid (a REST body) passes it deferred, so a verb checks permission first and parses
 * second: a technician gets 403 before any 400, and no transport repeats the verb's permission check.
 */
const DEFERRED = Symbol("deferred input");

export interface Deferred<T> {
  readonly [DEFERRED]: () => Promise<T>;
}

/** What a verb takes as its input: the value, or a deferred read of it. */
export type Input<T> = T | Deferred<T>;

export function deferred<T>(read: () => Promise<T>): Deferred<T> {
  return { [DEFERRED]: read };
}

/** The input's value; call it after the permission check. */
export async function resolveInput<T>(input: Input<T>): Promise<T> {
  if (input && typeof input === "object" && DEFERRED in input) return (input as Deferred<T>)[DEFERRED]();
  return input as T;
}
