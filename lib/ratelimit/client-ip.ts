import ipaddr from "ipaddr.js";

/**
 * Bucket key for clients whose address is unknown or unparsable. They share one bucket: the safe
 * direction, since a per-request key would mean no limit at all.
 */
export const UNKNOWN_CLIENT_KEY = "unknown";

/** Inputs of {@link clientKeyFor}; the route reads them from the socket, the header and the config. */
export interface ClientKeyOptions {
  /** Peer address of the TCP connection as Node reports it (may be `::ffff:a.b.c.d`). */
  socketAddress: string | undefined;
  /** Raw `X-Forwarded-For` header (several headers joined with ", "), or null. */
  forwardedFor: string | null;
  /** `TRUSTED_PROXY_HOPS`: how many proxies in front of the app append to `X-Forwarded-For`. */
  trustedProxyHops: number;
}

/**
 * The rate-limit bucket of a request.
 *
 * - `trustedProxyHops` 0: the socket address; `X-Forwarded-For` is ignored entirely, so a client cannot pick
 *   its own bucket by forging it.
 * - N > 0: every trusted proxy appends the address it received the connection from, so the last N entries
 *   were written by our proxies and the Nth from the right is the address the outermost trusted proxy saw:
 *   the client. With one proxy (nginx `proxy_add_x_forwarded_for`) that is the rightmost entry; entries to
 *   its left came from the client and are never trusted. If the header has fewer than N entries or that
 *   entry is not an IP address, the socket address is used.
 *
 * Keys are normalised: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) becomes `1.2.3.4`; other IPv6 addresses are
 * grouped per /64 (`2001:db8:1:2::/64`), because one host or subscriber typically owns a whole /64 and
 * could otherwise rotate through 2^64 buckets. An unusable socket address gives {@link UNKNOWN_CLIENT_KEY}.
 */
export function clientKeyFor(options: ClientKeyOptions): string {
  const socketKey = addressKey(options.socketAddress) ?? UNKNOWN_CLIENT_KEY;
  const hops = options.trustedProxyHops;
  if (!Number.isInteger(hops) || hops <= 0 || !options.forwardedFor) return socketKey;
  const entries = options.forwardedFor.split(",").map((entry) => entry.trim());
  if (entries.length < hops) return socketKey;
  return addressKey(entries[entries.length - hops]) ?? socketKey;
}

/** The bucket key for one address, or undefined when it is not a plain IPv4 / IPv6 address. */
export function addressKey(raw: string | undefined): string | undefined {
  const address = stripPortAndZone(raw?.trim() ?? "");
  if (!address) return undefined;
  // Only dotted-quad decimal: ipaddr.js would also accept "1", "0x7f.1" or octal forms, which no proxy writes.
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address).toString();
  if (!ipaddr.IPv6.isValid(address)) return undefined;
  const ipv6 = ipaddr.IPv6.parse(address);
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString();
  const prefix = [...ipv6.parts.slice(0, 4), 0, 0, 0, 0];
  return `${new ipaddr.IPv6(prefix).toString()}/64`;
}

/** Accepts the forms proxies write: `[v6]:port`, `[v6]`, `v4:port`, and a `%zone` suffix on link-local v6. */
function stripPortAndZone(value: string): string {
  let address = value;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed?.[1]) address = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  const zone = address.indexOf("%");
  return zone >= 0 && address.includes(":") ? address.slice(0, zone) : address;
}
