import ipaddr from "ipaddr.js";

/**
 * The address policy: which IP addresses LinkLens may open a connection to.
 *
 * Deny by default: an address is public only when ipaddr.js classifies it as plain `unicast`
 * (IPv4) or as global unicast inside 2000::/3 (IPv6). Every special-purpose range ipaddr.js
 * knows (loopback, private, link-local, CGNAT, multicast, reserved, documentation, benchmarking,
 * 6to4/NAT64 relays, Teredo, ORCHID, …) therefore fails closed, and so does anything it cannot parse.
 */

/** Cloud metadata endpoints named explicitly, so a future change of ipaddr.js ranges cannot open them. */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]);

/** 2000::/3: the only IPv6 block IANA allocates for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parse("2000::");

/**
 * Strips what may surround an address in a URL or a resolver answer: IPv6 brackets and a zone id
 * (`fe80::1%eth0`), which ipaddr.js would otherwise reject.
 */
function normalize(ip: string): string {
  let value = ip.trim();
  if (value.startsWith("[") && value.endsWith("]")) value = value.slice(1, -1);
  const zone = value.indexOf("%");
  if (zone !== -1) value = value.slice(0, zone);
  return value;
}

function isPublicV4(address: ipaddr.IPv4): boolean {
  if (METADATA_ADDRESSES.has(address.toString())) return false;
  return address.range() === "unicast";
}

/** The IPv4 address a transition mechanism embeds in its low 32 bits. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12, 16));
}

function isPublicV6(address: ipaddr.IPv6): boolean {
  if (METADATA_ADDRESSES.has(address.toNormalizedString()) || METADATA_ADDRESSES.has(address.toString())) return false;
  const parts = address.parts;
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the deprecated "compatible" form) reach the embedded IPv4 host
  // on a dual-stack socket, so they are exactly as public as that host.
  if (address.isIPv4MappedAddress()) return isPublicV4(address.toIPv4Address());
  if (parts.slice(0, 6).every((part) => part === 0) && !(parts[6] === 0 && (parts[7] === 0 || parts[7] === 1))) {
    return isPublicV4(embeddedV4(address));
  }
  const range = address.range();
  // Well-known NAT64 prefix 64:ff9b::/96: a NAT64 gateway forwards to the embedded IPv4 address.
  // (The local-use prefix 64:ff9b:1::/48 of RFC 8215 also reports "rfc6052" but is operator-internal.)
  if (range === "rfc6052") {
    const isWellKnown = parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((part) => part === 0);
    return isWellKnown && isPublicV4(embeddedV4(address));
  }
  // 6to4 2002:AABB:CCDD::/48 tunnels to the IPv4 address AA.BB.CC.DD.
  if (range === "6to4") {
    const bytes = address.toByteArray();
    return isPublicV4(new ipaddr.IPv4(bytes.slice(2, 6)));
  }
  // Teredo (2001::/32) hides its endpoints behind obfuscation and NAT; never reachable for us.
  if (range !== "unicast") return false;
  return address.match(GLOBAL_UNICAST_V6, 3);
}

/**
 * true when `ip` is a public unicast address that LinkLens may connect to; false for every
 * loopback, private, link-local, shared, multicast, reserved, documentation or transition address,
 * for the cloud metadata endpoints, and for anything that is not an IP address at all.
 *
 * Accepts dotted-quad IPv4 and any IPv6 text form (with or without brackets or a zone id).
 * Non-canonical IPv4 spellings (`0x7f.1`, `2130706433`) are rejected here on purpose: the WHATWG URL
 * parser normalises them before they reach us, and a resolver never returns them.
 */
export function isPublicAddress(ip: string): boolean {
  const value = normalize(ip);
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return isPublicV4(ipaddr.IPv4.parse(value));
  if (ipaddr.IPv6.isValid(value)) {
    try {
      return isPublicV6(ipaddr.IPv6.parse(value));
    } catch {
      return false;
    }
  }
  return false;
}

/** true when `host` is an IP literal (IPv4 dotted quad or IPv6, brackets allowed), i.e. needs no DNS. */
export function isIpLiteral(host: string): boolean {
  const value = normalize(host);
  return ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value);
}

/** The address without brackets or zone id, as `net.connect` wants it. */
export function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
