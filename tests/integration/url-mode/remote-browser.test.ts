import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { BASE_CHROMIUM_ARGS } from "@/lib/analyzer/render/browser";
import { createRenderer, type Renderer } from "@/lib/analyzer/render/renderer";
import { parseConfig } from "@/lib/config";
import { staticResolver } from "@/lib/net/resolve";
import { startCanary, type Canary } from "@/tests/helpers/canary";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * BROWSER_WS_ENDPOINT: a browser we did not launch has none of our flags, so the proxy must come
 * from each incognito context. We start a bare Chromium with a DevTools port (as a browser pool
 * would) and check that pages render and the guard still holds with interception off.
 */

let chromium: ChildProcess;
let profile: string;
let canary: Canary;
let site: FixtureSite;
let renderer: Renderer;
let wsEndpoint: string;

async function startRemoteChromium(): Promise<string> {
  profile = mkdtempSync(path.join(tmpdir(), "linklens-remote-"));
  // No proxy flags on purpose: the remote side is someone else's browser.
  chromium = spawn(
    TEST_CHROMIUM,
    [
      ...BASE_CHROMIUM_ARGS,
      "--headless",
      "--remote-debugging-port=0",
      "--remote-debugging-address=127.0.0.1",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`no DevTools endpoint:\n${output}`)), 20_000);
    chromium.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    chromium.once("exit", (code) => reject(new Error(`chromium exited ${code}:\n${output}`)));
  });
}

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite({
    canary: canary.origin,
    canaryByName: canary.hasLowPorts ? "http://evil.test" : `http://evil.test:${canary.port}`,
  });
  wsEndpoint = await startRemoteChromium();
  renderer = createRenderer({
    config: parseConfig({
      BROWSER_WS_ENDPOINT: wsEndpoint,
      ALLOW_PRIVATE_HOSTS: site.allowEntry,
      RENDER_TIMEOUT_MS: "5000",
    }),
    resolver: staticResolver({ "evil.test": ["127.0.0.2"] }),
    // The proxy alone must hold.
    interceptionGuard: false,
    skipHeavyResources: false,
  });
});

afterAll(async () => {
  await renderer?.close();
  const pid = chromium?.pid;
  if (pid) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      chromium.kill("SIGKILL");
    }
  }
  if (profile) rmSync(profile, { recursive: true, force: true });
  await site?.close();
  const hits = canary?.hits() ?? [];
  await canary?.close();
  expect(hits).toEqual([]);
});

describe("remote browser (BROWSER_WS_ENDPOINT)", () => {
  it("renders a scripted page", async () => {
    const result = await renderer.render(new URL(site.url("/scripted")));
    expect(renderer.browser?.isRemote).toBe(true);
    expect(result.html).toContain('href="/added-after-300ms"');
  });

  it("still forces every request through the proxy", async () => {
    const blockedBefore = renderer.proxy?.totals.blocked ?? 0;
    const result = await renderer.render(new URL(site.url("/canary/everything")));
    expect(result.html).toContain('href="/safe"');
    expect((renderer.proxy?.totals.blocked ?? 0) - blockedBefore).toBeGreaterThanOrEqual(15);
    const error = await renderer.render(new URL(site.url("/redirect-to-canary"))).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe("BLOCKED_REDIRECT");
    expect(canary.connections()).toBe(0);
  });

  it("leaves the remote browser running on close (it is not ours), and reconnects", async () => {
    await renderer.browser?.close();
    expect(chromium.exitCode).toBeNull();
  });

  it("does not count a slow browser start against the page's deadline (a blocked redirect stays 403)", async () => {
    // A relay that holds every connection to the browser for longer than the whole render deadline,
    // as a cold start on a busy machine does. The page itself answers at once; the deadline leaves a
    // loaded machine room for the render itself (at 2 s it ran out there).
    const target = new URL(wsEndpoint);
    const held = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      held.add(client);
      client.pause();
      client.on("error", () => client.destroy());
      setTimeout(() => {
        const upstream = net.connect({ host: target.hostname, port: Number(target.port) }, () => {
          client.pipe(upstream);
          upstream.pipe(client);
          client.resume();
        });
        upstream.on("error", () => client.destroy());
        client.on("close", () => upstream.destroy());
      }, 7_000);
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const relayed = new URL(wsEndpoint);
    relayed.port = String((relay.address() as net.AddressInfo).port);
    const slowStart = createRenderer({
      config: parseConfig({
        BROWSER_WS_ENDPOINT: relayed.href,
        ALLOW_PRIVATE_HOSTS: site.allowEntry,
        RENDER_TIMEOUT_MS: "6000",
      }),
      resolver: staticResolver({ "evil.test": ["127.0.0.2"] }),
      interceptionGuard: false,
      watchdogGraceMs: 100,
    });
    try {
      const error = await slowStart.render(new URL(site.url("/redirect-to-canary"))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("BLOCKED_REDIRECT");
    } finally {
      await slowStart.close();
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});
