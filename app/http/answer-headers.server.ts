import { data, type HeadersFunction } from "@remix-run/node";

/**
 * A route's page and `.data` answers carry its loader's and action's own headers. Remix keeps only the
 * cookies of a route that has no `headers` export, so a route whose answers set headers (a secret's
 * `no-store`, a feed's caching and referrer policy) exports this as `headers`.
 */
export const ownHeaders: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const merged = new Headers(loaderHeaders);
  actionHeaders.forEach((value, key) => merged.set(key, value));
  return merged;
};

/** An answer that shows a secret once (an API token, a webhook's signing secret): nothing may keep it. */
export function secretAnswer<T>(body: T) {
  return data(body, { headers: { "Cache-Control": "no-store" } });
}
