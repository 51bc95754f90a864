import { lookup as dnsLookup } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Where a webhook may be sent (decision 057): only to public addresses, so that an administrator cannot
 * make the server call its own loopback, the private network it sits in or a cloud metadata service
 * (server-side request forgery). The URL's host is checked when the endpoint is saved and its DNS answer
 * again at every delivery, by the connection's own lookup (`guardedLookup`), so a name that resolves to a
 * public address when saved and to a private one later is refused too, and the address checked is the
 * address connected to. `WEBHOOKS_ALLOW_PRIVATE=1` lifts the rule (tests, a receiver on the same network).
 */
const blocked = new BlockList();
const PRIVATE_IPV4: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];
for (const [network, prefix] of PRIVATE_IPV4) {
  blocked.addSubnet(network, prefix, "ipv4");
  // The same range written as IPv6: IPv4-compatible (::a.b.c.d), IPv4-mapped (::ffff:a.b.c.d),
  // IPv4-translated (::ffff:0:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry it in their last 32 bits;
  // 6to4 (2002:aabb:ccdd::) right after its 16-bit prefix.
  for (const embedding of ["::", "::ffff:", "::ffff:0:", "64:ff9b::"]) blocked.addSubnet(`${embedding}${network}`, 96 + prefix, "ipv6");
  const [a, b, c, d] = network.split(".").map(Number);
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  blocked.addSubnet(`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + prefix, "ipv6");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): translates to the network it sits in
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["2001::", 23], // IETF protocol assignments (Teredo, ...)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/**
 * Whether `address` (an IP literal) is a public unicast address. Anything that is not an IP is not. An
 * IPv6 address that carries a private, loopback or link-local IPv4 address is refused like that address.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 4) return !blocked.check(bare, "ipv4");
  if (family === 6) return !blocked.check(bare, "ipv6");
  return false;
}

/** The refusal of a private target: its code names the rule in the delivery's record and in the form. */
export class PrivateAddressError extends Error {
  readonly code = "PRIVATE_ADDRESS";
  constructor(public readonly address: string) {
    super(`refused: ${address} is not a public address (WEBHOOKS_ALLOW_PRIVATE is off)`);
  }
}

/**
 * A DNS lookup for `http.request` that refuses a host any of whose addresses is not public (unless
 * `allowPrivate`): the connection then goes to the very address that was checked.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const refused = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (refused) return callback(Object.assign(new PrivateAddressError(refused.address), { code: "PRIVATE_ADDRESS" }) as NodeJS.ErrnoException, "", 0);
      if (list.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }) as NodeJS.ErrnoException, "", 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** The addresses a host resolves to (an IP literal is itself); empty when it does not resolve. */
export async function resolveHost(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare)) return [bare];
  return new Promise((resolve) => {
    dnsLookup(bare, { all: true }, (error, addresses) => resolve(error ? [] : addresses.map((a) => a.address)));
  });
}
