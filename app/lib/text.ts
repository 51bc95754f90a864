/**
 * Control characters that no text field of the app accepts: C0 controls other than tab, line feed and
 * carriage return (kept for multi-line text), and DEL. PostgreSQL refuses NUL in text outright.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const CONTROL_CHARACTERS_MESSAGE = "common:validation.controlCharacters";

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/**
 * The paths of every string in `value` (a parsed JSON body, or form entries) holding a control
 * character: `["name", "equipments.0.internalReference"]`. Keys are checked too.
 */
export function controlCharacterPaths(value: unknown, path = ""): string[] {
  if (typeof value === "string") return hasControlCharacters(value) ? [path || "_form"] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => controlCharacterPaths(item, path ? `${path}.${i}` : String(i)));
  if (value && typeof value === "object" && !(value instanceof Uint8Array) && !(typeof Blob !== "undefined" && value instanceof Blob)) {
    return Object.entries(value).flatMap(([key, item]) =>
      hasControlCharacters(key) ? [path || "_form"] : controlCharacterPaths(item, path ? `${path}.${key}` : key),
    );
  }
  return [];
}

/**
 * A posted field's value as text, or undefined. Conform gives a field posted twice as an array (and a
 * field with nested names as an object), so a form re-shown after a refused post must not take it for
 * a string.
 */
export function textOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
