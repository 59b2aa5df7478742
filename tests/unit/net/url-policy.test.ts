import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { parsePublicUrl } from "@/lib/net/url-policy";

const ALLOW = ["127.0.0.1:4000", "[::1]:4001", "devbox.local:443"];

function rejection(raw: string, allow: string[] = []): { code: string; message: string } | null {
  try {
    parsePublicUrl(raw, allow);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
}

const good: Array<[string, string]> = [
  ["https://example.com/", "https://example.com/"],
  ["http://example.com", "http://example.com/"],
  ["https://example.com:443/a?b=c#d", "https://example.com/a?b=c#d"],
  ["http://example.com:80/", "http://example.com/"],
  ["https://example.com:80/", "https://example.com:80/"],
  ["http://example.com:443/", "http://example.com:443/"],
  ["  https://example.com/trim  ", "https://example.com/trim"],
  ["https://EXAMPLE.com/", "https://example.com/"],
  ["https://bücher.de/", "https://xn--bcher-kva.de/"],
  ["https://example.com./", "https://example.com./"],
  ["http://8.8.8.8/", "http://8.8.8.8/"],
  ["http://134744072/", "http://8.8.8.8/"],
  ["http://[2606:4700:4700::1111]/", "http://[2606:4700:4700::1111]/"],
  ["http://[::ffff:8.8.8.8]/", "http://[::ffff:808:808]/"],
  ["https://evil.test/", "https://evil.test/"],
  ["http://127.0.0.1:4000/page", "http://127.0.0.1:4000/page"],
  ["http://[::1]:4001/", "http://[::1]:4001/"],
  ["https://devbox.local/", "https://devbox.local/"],
];

// Every notation of a non-public host, plus the non-host rules. All must be INVALID_URL.
const bad: Array<[string, string]> = [
  ["http://127.0.0.1/", "loopback"],
  ["http://127.0.0.2/", "loopback /8"],
  ["http://2130706433/", "decimal loopback"],
  ["http://017700000001/", "octal loopback"],
  ["http://0x7f000001/", "hex loopback"],
  ["http://0x7f.1/", "hex short form"],
  ["http://127.1/", "short form"],
  ["http://127.0.1/", "three-part form"],
  ["http://0177.0.0.01/", "octal dotted"],
  ["http://127.0.0.1./", "trailing-dot IP"],
  ["http://0/", "zero"],
  ["http://0.0.0.0/", "unspecified"],
  ["http://[::]/", "IPv6 unspecified"],
  ["http://[::1]/", "IPv6 loopback"],
  ["http://[0:0:0:0:0:0:0:1]/", "IPv6 loopback long form"],
  ["http://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
  ["http://[::ffff:7f00:2]/", "IPv4-mapped loopback hex"],
  ["http://[::127.0.0.1]/", "IPv4-compatible loopback"],
  ["http://169.254.169.254/latest/meta-data/", "metadata"],
  ["http://0xa9fea9fe/", "metadata hex"],
  ["http://[fd00:ec2::254]/", "metadata IPv6"],
  ["http://100.64.0.1/", "CGNAT"],
  ["http://10.0.0.1/", "private"],
  ["http://192.168.0.1/", "private"],
  ["http://172.16.0.1/", "private"],
  ["http://[fc00::1]/", "unique local"],
  ["http://[fe80::1]/", "link-local"],
  ["http://[64:ff9b::7f00:1]/", "NAT64 loopback"],
  ["http://[2002:7f00:1::]/", "6to4 loopback"],
  ["http://[2001::1]/", "Teredo"],
  ["http://224.0.0.1/", "multicast"],
  ["http://255.255.255.255/", "broadcast"],
  ["http://192.0.2.1/", "documentation"],
  ["http://localhost/", "localhost"],
  ["http://LOCALHOST/", "localhost uppercase"],
  ["http://localhost./", "localhost with trailing dot"],
  ["http://localhost../", "localhost with two trailing dots"],
  ["http://foo.localhost/", "*.localhost"],
  ["http://printer.local/", "*.local"],
  ["http://metadata.google.internal/", "*.internal"],
  ["http://metadata.google.internal./", "*.internal with trailing dot"],
  ["http://router.home.arpa/", "*.home.arpa"],
  ["http://user:pass@example.com/", "credentials"],
  ["http://user@example.com/", "user name only"],
  ["https://:pass@example.com/", "password only"],
  ["ftp://example.com/", "ftp"],
  ["javascript:alert(1)", "javascript"],
  ["file:///etc/passwd", "file"],
  ["data:text/html,<a href=x>", "data"],
  ["ws://example.com/", "ws"],
  ["//example.com/", "scheme-relative"],
  ["/path", "relative"],
  ["example.com", "no scheme"],
  ["", "empty"],
  ["   ", "blank"],
  ["http://", "no host"],
  [`https://example.com/${"a".repeat(2030)}`, "too long"],
  ["http://example.com:8080/", "port 8080"],
  ["https://example.com:8443/", "port 8443"],
  ["http://example.com:22/", "port 22"],
  ["http://127.0.0.1:4001/", "allow list is per port"],
  ["http://localhost:4000/", "allow list is per host"],
];

describe("parsePublicUrl", () => {
  it.each(good)("accepts %s", (raw, href) => {
    expect(parsePublicUrl(raw, ALLOW).href).toBe(href);
  });

  it.each(bad)("rejects %s (%s) with INVALID_URL", (raw) => {
    const result = rejection(raw, ALLOW);
    expect(result, raw).not.toBeNull();
    expect(result?.code).toBe("INVALID_URL");
    expect(result?.message.length).toBeGreaterThan(10);
  });

  it("explains which rule failed", () => {
    expect(rejection("http://example.com:8080/")?.message).toMatch(/Port 8080/);
    expect(rejection("http://u:p@example.com/")?.message).toMatch(/user name or password/);
    expect(rejection("ftp://example.com/")?.message).toMatch(/ftp/);
    expect(rejection("http://127.1/")?.message).toMatch(/127\.0\.0\.1 is not a public IP address/);
    expect(rejection(`https://example.com/${"a".repeat(3000)}`)?.message).toMatch(/2048/);
  });

  it("accepts exactly 2,048 characters and rejects 2,049", () => {
    const base = "https://example.com/";
    expect(() => parsePublicUrl(base + "a".repeat(2048 - base.length), [])).not.toThrow();
    expect(rejection(base + "a".repeat(2049 - base.length))?.code).toBe("INVALID_URL");
  });

  it("rejects the length after normalisation too", () => {
    // 700 spaces become 2,100 characters of %20.
    expect(rejection(`https://example.com/${" ".repeat(700)}x`)?.code).toBe("INVALID_URL");
  });

  it("exempts an allow-listed trailing-dot spelling", () => {
    expect(parsePublicUrl("http://localhost.:4000/", ["localhost:4000"]).hostname).toBe("localhost.");
  });
});
