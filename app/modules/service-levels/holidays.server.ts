import Holidays from "date-holidays";

/**
 * Belgium's public holidays (issue 62), the days an entity may close its working calendar on. Server-only:
 * date-holidays carries the rules of every country (about 800 KB), which no page should download; a
 * screen receives the list from its loader.
 */

export type HolidayLanguage = "en" | "fr" | "nl";

export interface PublicHoliday {
  /** The local date, "YYYY-MM-DD". */
  day: string;
  name: string;
}

let belgium: Holidays | undefined;

/** Belgium's national public holidays of `year` (ten a year), in date order, named in `language`. */
export function belgianPublicHolidays(year: number, language: HolidayLanguage): PublicHoliday[] {
  belgium ??= new Holidays("BE", { languages: ["en", "fr", "nl"], types: ["public"] });
  return belgium
    .getHolidays(year, language)
    .filter((h) => h.type === "public")
    .map((h) => ({ day: h.date.slice(0, 10), name: h.name }))
    .sort((a, b) => a.day.localeCompare(b.day));
}
