/**
 * Colour contrast (WCAG 2.x): relative luminance, contrast ratio, and the readable colours of the
 * brand-coloured header, computed from an entity's template colours. Pure and client-safe.
 */

export type Rgb = readonly [number, number, number];

/** WCAG AA for normal text (1.4.3). */
export const AA_TEXT = 4.5;

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/** `#rgb` or `#rrggbb` (any case) to channels 0..255; null for anything else. */
export function parseHex(hex: string): Rgb | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as unknown as Rgb;
}

/** Channels to `#rrggbb` (lower case), rounding and clamping each channel. */
export function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.min(255, Math.max(0, Math.round(c))).toString(16).padStart(2, "0")).join("")}`;
}

/** Relative luminance, 0 (black) to 1 (white), of sRGB channels 0..255. */
export function relativeLuminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `from` moved towards `to` by `amount` (0 = from, 1 = to), rounded to whole channels. */
export function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  return from.map((c, i) => Math.round(c + (to[i] - c) * amount)) as unknown as Rgb;
}

/** Black or white, whichever contrasts more with `background` (always at least 4.58:1). */
export function blackOrWhite(background: Rgb): Rgb {
  return contrastRatio(BLACK, background) >= contrastRatio(WHITE, background) ? BLACK : WHITE;
}

/** Smallest `amount` in [0, 1] (to 1/64) for which `test(amount)` holds, assuming it holds at 1. */
function smallest(test: (amount: number) => boolean): number {
  let lo = 0;
  let hi = 1;
  if (test(0)) return 0;
  for (let i = 0; i < 6; i++) {
    const mid = (lo + hi) / 2;
    if (test(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * A text colour readable on `background` (contrast >= `min`): `preferred` itself when it is, else
 * `preferred` lightened or darkened just enough (keeping its hue as far as possible), whichever
 * needs the smaller change; black or white when neither direction gets there.
 */
export function readableOn(background: Rgb, preferred: Rgb, min = AA_TEXT): Rgb {
  if (contrastRatio(preferred, background) >= min) return preferred;
  const passes = (target: Rgb) => (amount: number) => contrastRatio(mix(preferred, target, amount), background) >= min;
  const options = [WHITE, BLACK]
    .filter((target) => contrastRatio(target, background) >= min)
    .map((target) => ({ target, amount: smallest(passes(target)) }))
    .sort((a, b) => a.amount - b.amount);
  if (options.length === 0) return blackOrWhite(background);
  const best = mix(preferred, options[0].target, options[0].amount);
  return contrastRatio(best, background) >= min ? best : options[0].target;
}

/**
 * A dimmed version of `foreground` for secondary text on `background`: moved towards the background
 * by up to `maxDim`, but only as far as the contrast stays >= `min` (so it may not dim at all).
 */
export function dimmedOn(background: Rgb, foreground: Rgb, maxDim = 0.35, min = AA_TEXT): Rgb {
  let best = foreground;
  for (let step = 1; step <= 35; step++) {
    const amount = (maxDim * step) / 35;
    const candidate = mix(foreground, background, amount);
    if (contrastRatio(candidate, background) < min) break;
    best = candidate;
  }
  return best;
}

export interface BrandColors {
  /** The header's background: the entity's colour as chosen. */
  background: string;
  /** Main text and icons on it. */
  foreground: string;
  /** Secondary (dimmed) text on it. */
  muted: string;
  /** The hover background of controls on it: moved away from the text colour, so contrast only grows. */
  hover: string;
}

/**
 * Readable header colours from an entity's template colours (SPEC.md section 3): the background is
 * kept; the text colour is kept when it contrasts enough, else adjusted; the dimmed text is as dim as
 * AA allows. Every text colour has a contrast >= 4.5:1 with both the background and the hover colour.
 * An invalid colour falls back to `fallback`.
 */
export function brandColors(
  color: string,
  textColor: string,
  fallback: { color: string; textColor: string } = { color: "#1e3a8a", textColor: "#ffffff" },
): BrandColors {
  // Every page's shell asks for its entity's colours: the answer is kept per input (a few entities).
  const key = `${color}|${textColor}|${fallback.color}|${fallback.textColor}`;
  const kept = brandColorsKept.get(key);
  if (kept) return kept;
  const colors = computeBrandColors(color, textColor, fallback);
  if (brandColorsKept.size >= 200) brandColorsKept.clear();
  brandColorsKept.set(key, colors);
  return colors;
}

const brandColorsKept = new Map<string, BrandColors>();

function computeBrandColors(color: string, textColor: string, fallback: { color: string; textColor: string }): BrandColors {
  const background = parseHex(color) ?? parseHex(fallback.color) ?? BLACK;
  const preferred = parseHex(textColor) ?? parseHex(fallback.textColor) ?? WHITE;
  const foreground = readableOn(background, preferred);
  const muted = dimmedOn(background, foreground);
  const away = relativeLuminance(foreground) > relativeLuminance(background) ? BLACK : WHITE;
  const hover = mix(background, away, 0.15);
  return Object.freeze({ background: toHex(background), foreground: toHex(foreground), muted: toHex(muted), hover: toHex(hover) });
}
