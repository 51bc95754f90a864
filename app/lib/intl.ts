/**
 * Intl formatters kept per language and options. Making a formatter costs 20-100 times more than using
 * it, and a page of 700 dated events or 300 counts would otherwise make one per value. Bounded: at most
 * a few hundred combinations exist (three languages, a handful of styles).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const MAX_KEPT = 200;

function kept<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= MAX_KEPT) cache.clear();
    cache.set(key, value);
  }
  return value;
}

/**
 * `new Intl.DateTimeFormat(locale, options)`, made once per language and options. Pages and documents
 * write dates through app/lib/dates.ts (one style per kind, in the entity's time zone), not with this.
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return kept(dateFormats, `${locale}\u0000${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** `new Intl.NumberFormat(locale, options)`, made once per language and options. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return kept(numberFormats, `${locale}\u0000${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}
