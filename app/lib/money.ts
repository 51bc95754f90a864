import { numberFormat } from "./intl";

/**
 * Amounts of money as a reader reads them (client-safe): in their language's format and the entity's
 * currency ("1 234,50 €" in French, "€1,234.50" in English). Amounts arrive as exact decimal strings
 * computed in SQL ("1234.50"); they are only formatted here, never summed.
 */
export function formatMoney(amount: string | number, currency: string, locale: string): string {
  return numberFormat(locale, { style: "currency", currency }).format(Number(amount));
}

/** A formatter of amounts in one language and currency, for a table of them. */
export function moneyFormatter(currency: string, locale: string): (amount: string | number) => string {
  const format = numberFormat(locale, { style: "currency", currency });
  return (amount) => format.format(Number(amount));
}
