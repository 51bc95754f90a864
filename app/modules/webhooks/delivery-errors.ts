/**
 * A delivery's recorded error (`webhook_deliveries.last_error`, kept in English as the delivery code
 * writes it) as a translation key and its values, for the ones the app itself writes; other texts (the
 * network's own, such as "socket hang up") have no key and are shown as they are.
 */
export interface DeliveryErrorText {
  key: `webhooks:deliveries.errors.${string}`;
  values?: Record<string, string | number>;
}

const PATTERNS: Array<[RegExp, (m: RegExpMatchArray) => DeliveryErrorText]> = [
  [/^endpoint disabled$/, () => ({ key: "webhooks:deliveries.errors.disabled" })],
  [/^the endpoint's secret cannot be read with this server's key/, () => ({ key: "webhooks:deliveries.errors.secretUnreadable" })],
  [/^no answer within (\d+(?:\.\d+)?) s$/, (m) => ({ key: "webhooks:deliveries.errors.timeout", values: { seconds: Number(m[1]) } })],
  [/^refused: only https:\/\/ URLs/, () => ({ key: "webhooks:deliveries.errors.httpsOnly" })],
  [/^refused: (.+) is not a public address/, (m) => ({ key: "webhooks:deliveries.errors.notPublic", values: { host: m[1] } })],
  [/^(?:no address for|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)) (.+)$/, (m) => ({ key: "webhooks:deliveries.errors.noAddress", values: { host: m[1] } })],
  [/ECONNREFUSED/, () => ({ key: "webhooks:deliveries.errors.connectionRefused" })],
  [/ECONNRESET|socket hang up/, () => ({ key: "webhooks:deliveries.errors.connectionReset" })],
  [/certificate|SSL|TLS|self[- ]signed/i, () => ({ key: "webhooks:deliveries.errors.tls" })],
];

export function deliveryErrorText(error: string): DeliveryErrorText | null {
  for (const [pattern, text] of PATTERNS) {
    const match = error.match(pattern);
    if (match) return text(match);
  }
  return null;
}
