/**
 * Text for the standard PDF fonts (pdfkit's Helvetica and Courier, Windows-1252): the work order and the
 * sticker sheets draw with them.
 */

/** Characters of Windows-1252 above 0x7f that are not Latin-1 (what the standard PDF fonts draw). */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/**
 * Text the standard fonts can draw: spaces of any kind become a space, line breaks are kept, other
 * characters outside Windows-1252 (emoji, other scripts) become "?" (decomposed first, so a letter
 * with a rarer accent keeps its letter).
 */
export function pdfText(value: string): string {
  let out = "";
  for (const ch of value.replace(/\r\n?/g, "\n").replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, " ")) {
    const code = ch.codePointAt(0)!;
    if (ch === "\n" || (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) {
      out += ch;
      continue;
    }
    if (code === 0x09) {
      out += "    ";
      continue;
    }
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0x200b && code <= 0x200f) || code === 0xfeff) continue;
    const base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    out += base && [...base].every((c) => c.charCodeAt(0) < 0x7f) ? base : "?";
  }
  return out;
}
