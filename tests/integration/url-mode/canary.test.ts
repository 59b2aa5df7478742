import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLinks } from "@/lib/analyzer/links/check-links";
import { createRenderer, type Renderer } from "@/lib/analyzer/render/renderer";
import { parseConfig, type Config } from "@/lib/config";
import { assertPublicHost, staticResolver, type Resolver } from "@/lib/net/resolve";
import { parsePublicUrl } from "@/lib/net/url-policy";
import { startCanary, type Canary } from "@/tests/helpers/canary";
import { OTHER_SCHEME_REDIRECTS, startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { codeOf } from "../../helpers/error-code";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * The tripwire suite: a canary server on 127.0.0.2 (and .3, and :80/:443 when we may bind them)
 * counts every TCP connection. Every way in is tried: the URL itself in every notation, a name that
 * resolves to the canary, redirects to it, a page whose every kind of subresource points at it
 * (rendered with all layers, and with the proxy alone), and link checks. The count must stay zero.
 */

let canary: Canary;
let site: FixtureSite;
let resolver: Resolver;
let config: Config;
let layered: Renderer;
let proxyOnly: Renderer;
let byName: string;

beforeAll(async () => {
  canary = await startCanary();
  // With :80 available, `evil.test` passes the port rule and only the DNS answer can stop it.
  byName = canary.hasLowPorts ? "http://evil.test" : `http://evil.test:${canary.port}`;
  site = await startFixtureSite({ canary: canary.origin, canaryByName: byName });
  resolver = staticResolver({
    "evil.test": ["127.0.0.2"],
    "evil6.test": ["::ffff:127.0.0.2"],
    "mixed.test": ["93.184.215.14", "127.0.0.2"],
  });
  config = parseConfig({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    RENDER_TIMEOUT_MS: "5000",
    LINK_CHECK_TIMEOUT_MS: "1000",
  });
  layered = createRenderer({ config, resolver });
  // No interception guard, every resource type loaded: the filtering proxy is the only thing left.
  proxyOnly = createRenderer({ config, resolver, interceptionGuard: false, skipHeavyResources: false });
});

afterAll(async () => {
  await Promise.all([layered?.close(), proxyOnly?.close()]);
  await site?.close();
  const hits = canary?.hits() ?? [];
  await canary?.close();
  expect(hits, "something reached the canary").toEqual([]);
});

function notations(port: number): string[] {
  const p = port === 80 ? "" : `:${port}`;
  return [
    `http://127.0.0.2${p}/`,
    `http://127.0.0.2.${p}/`,
    `http://2130706434${p}/`,
    `http://0x7f000002${p}/`,
    `http://017700000002${p}/`,
    `http://0x7f.0.0.2${p}/`,
    `http://127.0.2${p}/`,
    `http://[::ffff:127.0.0.2]${p}/`,
    `http://[::ffff:7f00:2]${p}/`,
    `http://[::127.0.0.2]${p}/`,
    `http://[64:ff9b::7f00:2]${p}/`,
    `http://[2002:7f00:2::]${p}/`,
    `http://127.0.0.3${p}/`,
    `https://127.0.0.2${p}/`,
  ];
}

describe("nothing reaches the canary", () => {
  it("rejects the canary URL in every notation (parsePublicUrl) and at render time", async () => {
    const ports = [...new Set(canary.listeners.map((listener) => listener.port))];
    for (const port of ports) {
      for (const raw of notations(port)) {
        expect(await codeOf(Promise.resolve().then(() => parsePublicUrl(raw, [site.allowEntry]))), raw).toBe(
          "INVALID_URL",
        );
        // Callers that skip parsePublicUrl are still stopped before the browser sees the URL.
        expect(await codeOf(layered.render(new URL(raw))), raw).toBe("BLOCKED_URL");
      }
    }
  });

  it("blocks host names that resolve to the canary", async () => {
    for (const host of ["evil.test", "evil6.test", "mixed.test"]) {
      expect(await codeOf(assertPublicHost(host, 80, [], { resolver })), host).toBe("BLOCKED_URL");
      expect(await codeOf(layered.render(new URL(`http://${host}/`))), host).toBe("BLOCKED_URL");
      expect(await codeOf(layered.render(new URL(`https://${host}/`))), host).toBe("BLOCKED_URL");
    }
  });

  it.each([
    ["/redirect-to-canary"],
    ["/redirect-to-canary-name"],
    ["/redirect-to-canary-https"],
    ["/chain-to-canary"],
    ...Object.keys(OTHER_SCHEME_REDIRECTS).map((path) => [path]),
  ])("refuses the redirect %s with BLOCKED_REDIRECT, with or without interception", async (path) => {
    expect(await codeOf(layered.render(new URL(site.url(path))))).toBe("BLOCKED_REDIRECT");
    expect(await codeOf(proxyOnly.render(new URL(site.url(path))))).toBe("BLOCKED_REDIRECT");
  });

  it("keeps a page from navigating itself to the canary", async () => {
    const result = await layered.render(new URL(site.url("/js-redirect-to-canary")));
    expect(result.finalUrl).toBe(site.url("/js-redirect-to-canary"));
    expect(result.html).toContain('href="/stay"');
  });

  it("renders a page whose every subresource points at the canary, all layers on", async () => {
    const result = await layered.render(new URL(site.url("/canary/everything")));
    expect(result.status).toBe(200);
    expect(result.html).toContain('href="/safe"');
  });

  it("renders the same page with the proxy as the only guard, and the proxy refuses it all", async () => {
    const blockedBefore = proxyOnly.proxy?.totals.blocked ?? 0;
    const result = await proxyOnly.render(new URL(site.url("/canary/everything")));
    expect(result.status).toBe(200);
    // The proxy really saw the attempts (loopback was not bypassed): one refusal per canary request kind at least.
    expect((proxyOnly.proxy?.totals.blocked ?? 0) - blockedBefore).toBeGreaterThanOrEqual(15);
    expect(result.html).toContain('href="/safe"');
    expect(site.hits("/canary/worker.js")).toBeGreaterThan(0);
  });

  it("link checks of canary URLs answer 0 without a connection", async () => {
    const urls = [
      ...notations(canary.port),
      `${byName}/checked`,
      "https://evil.test/",
      site.url("/status/to-canary"),
      site.url("/status/to-canary-name"),
    ];
    const statuses = await checkLinks(urls, { config, resolver });
    for (const url of urls) {
      const key = new URL(url).href;
      expect(statuses.get(key), url).toBe(0);
    }
  });

  it("saw nothing (checked again after late timers had a chance to fire)", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(canary.connections(), canary.hits().join("\n")).toBe(0);
    expect(canary.requests()).toBe(0);
  });
});
