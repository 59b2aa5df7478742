import { describe, expect, it } from "vitest";
import { isStrictHost, publicOrigin } from "../../../lib/http/origin";

const LISTEN = "http://localhost:3000";
const noSite = { SITE_URL: undefined, TRUSTED_PROXY_HOPS: 0 };

function headers(values: Record<string, string>) {
  return new Headers(values);
}

describe("publicOrigin: which origin absolute URLs (Error docs, discovery) use", () => {
  it("prefers SITE_URL over any Host", () => {
    expect(
      publicOrigin(
        headers({ host: "evil.example" }),
        { SITE_URL: "https://linklens.dev/", TRUSTED_PROXY_HOPS: 0 },
        LISTEN,
      ),
    ).toBe("https://linklens.dev");
  });

  it("uses a well-formed Host", () => {
    expect(publicOrigin(headers({ host: "LinkLens.example:8080" }), noSite, LISTEN)).toBe(
      "http://linklens.example:8080",
    );
    expect(publicOrigin(headers({ host: "[::1]:3000" }), noSite, LISTEN)).toBe("http://[::1]:3000");
  });

  it.each([
    "evil.example/<script>",
    "a b",
    "evil.example:99999",
    "-evil.example",
    "evil..example",
    "evil.example:80:81",
    "user@evil.example",
    "evil.example\\x",
    `${"a".repeat(64)}.example`,
    "",
  ])("falls back to the listen address for the forged Host %j", (host) => {
    const source = { get: (name: string) => (name === "host" ? host : null) };
    expect(publicOrigin(source, noSite, LISTEN)).toBe(LISTEN);
    expect(isStrictHost(host)).toBe(false);
  });

  it("reads X-Forwarded-Host/Proto only behind trusted proxies, with the same check", () => {
    const forwarded = headers({
      host: "internal:3000",
      "x-forwarded-host": "linklens.example",
      "x-forwarded-proto": "https",
    });
    expect(publicOrigin(forwarded, noSite, LISTEN)).toBe("http://internal:3000");
    expect(publicOrigin(forwarded, { SITE_URL: undefined, TRUSTED_PROXY_HOPS: 1 }, LISTEN)).toBe(
      "https://linklens.example",
    );
    const forged = headers({ host: "internal:3000", "x-forwarded-host": "evil.example/<x>" });
    expect(publicOrigin(forged, { SITE_URL: undefined, TRUSTED_PROXY_HOPS: 1 }, LISTEN)).toBe(LISTEN);
  });
});
