import { createContext, useContext } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_TIME_ZONE, type DateFormats, dateFormats } from "./dates";

/**
 * The time zone the page's dates are written in: the signed-in entity's, provided by the root layout
 * from the root loader's data (so the server's render and the browser's hydration write the same text);
 * a public page provides the zone of the entity it shows (the reporter's status page).
 */
const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);
export const TimeZoneProvider = TimeZoneContext.Provider;

/** The page's time zone. */
export function useTimeZone(): string {
  return useContext(TimeZoneContext);
}

/** The date formatters (app/lib/dates.ts) of the page's language and time zone. */
export function useDates(): DateFormats {
  const { i18n } = useTranslation();
  return dateFormats(i18n.language, useContext(TimeZoneContext));
}
