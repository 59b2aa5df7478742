import { describe, expect, it } from "vitest";
import { clientKeyFor, UNKNOWN_CLIENT_KEY } from "@/lib/ratelimit";

type Row = [
  name: string,
  socketAddress: string | undefined,
  forwardedFor: string | null,
  hops: number,
  expected: string,
];

const rows: Row[] = [
  // hops 0: X-Forwarded-For is never read, so a forged one changes nothing.
  ["direct IPv4", "203.0.113.7", null, 0, "203.0.113.7"],
  ["forged XFF ignored with hops 0", "203.0.113.7", "1.1.1.1", 0, "203.0.113.7"],
  ["forged XFF chain ignored with hops 0", "203.0.113.7", "9.9.9.9, 8.8.8.8", 0, "203.0.113.7"],
  ["IPv4-mapped socket address", "::ffff:203.0.113.7", null, 0, "203.0.113.7"],
  ["IPv4-mapped uppercase", "::FFFF:198.51.100.4", null, 0, "198.51.100.4"],
  ["IPv6 grouped per /64", "2001:db8:1:2:aaaa:bbbb:cccc:dddd", null, 0, "2001:db8:1:2::/64"],
  ["same /64, other host, same key", "2001:db8:1:2::1", null, 0, "2001:db8:1:2::/64"],
  ["other /64, other key", "2001:db8:1:3::1", null, 0, "2001:db8:1:3::/64"],
  ["IPv6 loopback", "::1", null, 0, "::/64"],
  ["IPv6 with zone", "fe80::1%eth0", null, 0, "fe80::/64"],
  ["missing socket address", undefined, null, 0, UNKNOWN_CLIENT_KEY],
  ["garbage socket address", "not-an-ip", null, 0, UNKNOWN_CLIENT_KEY],
  // hops 1 (nginx proxy_add_x_forwarded_for): the rightmost entry is what nginx saw.
  ["hops 1, single entry", "10.0.0.2", "203.0.113.7", 1, "203.0.113.7"],
  ["hops 1, client-forged prefix ignored", "10.0.0.2", "1.1.1.1, 203.0.113.7", 1, "203.0.113.7"],
  ["hops 1, spaces and no spaces", "10.0.0.2", "1.1.1.1,203.0.113.7", 1, "203.0.113.7"],
  ["hops 1, IPv6 client grouped", "10.0.0.2", "2001:db8:aa:bb:1:2:3:4", 1, "2001:db8:aa:bb::/64"],
  ["hops 1, mapped client", "10.0.0.2", "::ffff:192.0.2.10", 1, "192.0.2.10"],
  ["hops 1, IPv4 with port", "10.0.0.2", "203.0.113.7:51234", 1, "203.0.113.7"],
  ["hops 1, bracketed IPv6 with port", "10.0.0.2", "[2001:db8::9]:443", 1, "2001:db8::/64"],
  ["hops 1, no header: socket", "10.0.0.2", null, 1, "10.0.0.2"],
  ["hops 1, empty header: socket", "10.0.0.2", "", 1, "10.0.0.2"],
  ["hops 1, garbage entry: socket", "10.0.0.2", "1.1.1.1, evil", 1, "10.0.0.2"],
  ["hops 1, 'unknown' entry: socket", "10.0.0.2", "unknown", 1, "10.0.0.2"],
  ["hops 1, trailing empty entry: socket", "10.0.0.2", "203.0.113.7, ", 1, "10.0.0.2"],
  ["hops 1, non-decimal IPv4 form rejected", "10.0.0.2", "0x7f.1", 1, "10.0.0.2"],
  ["hops 1, out-of-range octet rejected", "10.0.0.2", "256.1.1.1", 1, "10.0.0.2"],
  // hops 2 (CDN -> nginx -> app): the second entry from the right.
  ["hops 2, picks second from the right", "10.0.0.2", "1.1.1.1, 203.0.113.7, 172.16.0.5", 2, "203.0.113.7"],
  ["hops 2, exact length", "10.0.0.2", "203.0.113.7, 172.16.0.5", 2, "203.0.113.7"],
  ["hops 2, header too short: socket", "10.0.0.2", "172.16.0.5", 2, "10.0.0.2"],
  ["hops 3, header too short: socket", "10.0.0.2", "203.0.113.7, 172.16.0.5", 3, "10.0.0.2"],
];

describe("clientKeyFor", () => {
  it.each(rows)("%s", (_name, socketAddress, forwardedFor, trustedProxyHops, expected) => {
    expect(clientKeyFor({ socketAddress, forwardedFor, trustedProxyHops })).toBe(expected);
  });
});
