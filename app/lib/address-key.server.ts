import { isIPv6 } from "node:net";

/**
 * The rate-limit key of a client address: IPv4 as is, IPv6 by its first 64 bits (one host usually
 * holds the whole /64). Shared by the server's tiered limits (server/rate-limit.ts) and the app's own
 * limiters (app/http/report-limits.server.ts).
 */
export function addressKey(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ""] = address.split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
