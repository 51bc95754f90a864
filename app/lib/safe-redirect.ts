/**
 * A same-origin path to go back to, from a value the request supplied (a form field, a query
 * parameter, the saved target). The value is parsed as a URL against the app's origin and only a
 * path on that origin is kept, in its serialised form (always ASCII, safe in a Location header);
 * anything else becomes the fallback: absolute and protocol-relative URLs (`//evil`, `/\evil`,
 * `/\t/evil`, which the URL parser turns into `//evil`), other schemes (`javascript:`), relative
 * paths, control characters (CR, LF, NUL, tab), and values over 2,048 characters.
 */
const MAX_LENGTH = 2048;
// A stand-in for the app's origin: only whether the target stays on it matters.
const BASE = "http://app.invalid";

export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value) || !value.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil` parses to the path `//evil`, which a browser would read as another host.
  if (!path.startsWith("/") || path.startsWith("//")) return fallback;
  return path;
}
