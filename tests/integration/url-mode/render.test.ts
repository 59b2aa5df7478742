import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { createRenderer, type Renderer } from "@/lib/analyzer/render/renderer";
import { parseConfig } from "@/lib/config";
import { staticResolver } from "@/lib/net/resolve";
import { OTHER_SCHEME_REDIRECTS, startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * renderPage against a real Chromium and the fixture site: what it returns and, for every way a
 * page can fail, the exact error code (and so HTTP status) it must give.
 */

let site: FixtureSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await startFixtureSite();
  const config = parseConfig({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    // Generous: on a loaded machine a 4 s deadline cut renders short (the tests of deadlines pass their own).
    RENDER_TIMEOUT_MS: "15000",
    MAX_CONCURRENT_RENDERS: "2",
  });
  renderer = createRenderer({
    config,
    resolver: staticResolver({ "evil.test": ["127.0.0.2"] }),
    watchdogGraceMs: 3_000,
  });
});

afterAll(async () => {
  await renderer?.close();
  await site?.close();
});

async function failure(path: string, timeoutMs?: number): Promise<{ code: string; status: number; message: string }> {
  try {
    const result = await renderer.render(new URL(site.url(path)), { timeoutMs });
    return { code: "none", status: result.status, message: result.finalUrl };
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
}

describe("renderPage", () => {
  it("returns the DOM after scripts, including links added at load, after 300 ms and after a fetch", async () => {
    const result = await renderer.render(new URL(site.url("/scripted")));
    expect(result.status).toBe(200);
    expect(result.finalUrl).toBe(site.url("/scripted"));
    expect(result.headerNofollow).toBe(false);
    for (const href of ["/static", "/added-at-load", "/added-after-300ms", "/from-fetch"])
      expect(result.html).toContain(`href="${href}"`);
  });

  it("follows a 301 chain and reports the final URL", async () => {
    const result = await renderer.render(new URL(site.url("/chain/1")));
    expect(result.finalUrl).toBe(site.url("/chain/end"));
    expect(result.status).toBe(200);
  });

  it("reads X-Robots-Tag: nofollow / none / googlebot, ignores other bots", async () => {
    const flags: Record<string, boolean> = {};
    for (const path of [
      "/robots/nofollow",
      "/robots/none",
      "/robots/googlebot",
      "/robots/otherbot",
      "/robots/noindex",
    ]) {
      flags[path] = (await renderer.render(new URL(site.url(path)))).headerNofollow;
    }
    expect(flags).toEqual({
      "/robots/nofollow": true,
      "/robots/none": true,
      "/robots/googlebot": true,
      "/robots/otherbot": false,
      "/robots/noindex": false,
    });
  });

  it("dismisses dialogs, closes popups and still captures later links", async () => {
    const result = await renderer.render(new URL(site.url("/dialogs")));
    expect(result.html).toContain('href="/after-dialogs"');
  });

  it("analyses a page whose load never finishes as it stands at the deadline", async () => {
    const started = Date.now();
    const result = await renderer.render(new URL(site.url("/never-loads")), { timeoutMs: 2_500 });
    expect(result.html).toContain('href="/link-before-hang"');
    expect(result.html).toContain('href="/scripted-link"');
    expect(Date.now() - started).toBeLessThan(2_500 + 3_000);
  });

  it("analyses a main document that never ends as far as it got", async () => {
    const result = await renderer.render(new URL(site.url("/never-ends")), { timeoutMs: 2_500 });
    expect(result.html).toContain('href="/partial-2"');
  });

  // One table of failures: path → errorCode and HTTP status.
  const failures: Array<[string, string, number]> = [
    ["/not-found", "UNPROCESSABLE_PAGE", 422],
    ["/status/403", "UNPROCESSABLE_PAGE", 422],
    ["/status/410", "UNPROCESSABLE_PAGE", 422],
    ["/text", "UNPROCESSABLE_PAGE", 422],
    ["/json", "UNPROCESSABLE_PAGE", 422],
    ["/pdf", "UNPROCESSABLE_PAGE", 422],
    ["/download", "UNPROCESSABLE_PAGE", 422],
    ["/huge", "UNPROCESSABLE_PAGE", 422],
    ["/unavailable", "UPSTREAM_ERROR", 502],
    ["/status/500", "UPSTREAM_ERROR", 502],
    ["/loop/a", "UPSTREAM_ERROR", 502],
    ["/hang", "UPSTREAM_ERROR", 502],
    ["/redirect-to-file", "BLOCKED_REDIRECT", 403],
    ["/redirect-to-canary", "BLOCKED_REDIRECT", 403],
    ["/chain-to-canary", "BLOCKED_REDIRECT", 403],
    ["/redirect-to-canary-name", "BLOCKED_REDIRECT", 403],
    ["/redirect-to-canary-https", "BLOCKED_REDIRECT", 403],
    // gopher:, ftp:, javascript: … (Chromium hands them to the OS, so no response event reaches the page), data:, file:.
    ...Object.keys(OTHER_SCHEME_REDIRECTS).map((path): [string, string, number] => [path, "BLOCKED_REDIRECT", 403]),
  ];
  it.each(failures)("%s → %s (%i)", async (path, code, status) => {
    // /huge gets time to arrive in full: cut off by the deadline it would (rightly) be analysed as it stands.
    const result = await failure(path, path === "/hang" ? 2_000 : path === "/huge" ? 30_000 : undefined);
    expect(result, JSON.stringify(result)).toMatchObject({ code, status });
  });

  it("blocks a first URL whose host resolves to a private address (BLOCKED_URL)", async () => {
    const error = await renderer.render(new URL("http://evil.test/")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("BLOCKED_URL");
  });

  it("answers 502 when the host does not resolve or refuses", async () => {
    const dns = await renderer.render(new URL("http://does-not-exist.invalid/")).catch((e: unknown) => e);
    expect((dns as ApiError).code).toBe("UPSTREAM_ERROR");
    const refused = createRenderer({
      config: parseConfig({
        ALLOW_PRIVATE_HOSTS: "127.0.0.1:1",
        PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
        RENDER_TIMEOUT_MS: "3000",
      }),
    });
    try {
      const error = await refused.render(new URL("http://127.0.0.1:1/")).catch((e: unknown) => e);
      expect((error as ApiError).code).toBe("UPSTREAM_ERROR");
    } finally {
      await refused.close();
    }
  });
});

describe("what the browser runs beside a page", () => {
  // Chromium builds its omnibox popup (a chrome:// WebUI page in a renderer of its own) for every window,
  // and again while a page stays open: about 0.3 CPU s a render, for nothing. lib/analyzer/render/browser.ts
  // turns it off.
  it("builds none of its own UI pages during a render or while a rendered page is kept open", async () => {
    await renderer.render(new URL(site.url("/about"))); // the browser is started by its first render
    const browser = await renderer.browser?.get();
    expect(browser).toBeDefined();
    const cdp = await browser!.target().createCDPSession();
    const created: string[] = [];
    cdp.on("Target.targetCreated", ({ targetInfo }) => created.push(`${targetInfo.type} ${targetInfo.url}`));
    try {
      await cdp.send("Target.setDiscoverTargets", { discover: true, filter: [{}] });
      const result = await renderer.render(new URL(site.url("/about")), { keepPage: true, signals: true });
      try {
        // Long enough for the popup to be built (it was there within 300 ms of a render when it was on).
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const { targetInfos } = await cdp.send("Target.getTargets", { filter: [{}] });
        const all = [...created, ...targetInfos.map((info) => `${info.type} ${info.url}`)];
        expect(all.some((target) => target.startsWith("page ") && target.includes("/about"))).toBe(true);
        expect(all.filter((target) => target.startsWith("browser_ui") || target.includes("chrome://"))).toEqual([]);
      } finally {
        await result.lease?.close();
      }
    } finally {
      await cdp.detach();
    }
  });
});

describe("renderer resilience", () => {
  it("the watchdog ends a render whose page hangs the renderer, and the next render works", async () => {
    const started = Date.now();
    const result = await failure("/busy-loop", 1_500);
    expect(result.code).toBe("UPSTREAM_ERROR");
    expect(Date.now() - started).toBeLessThan(1_500 + 3_000 + 2_500);
    expect((await renderer.render(new URL(site.url("/about")))).status).toBe(200);
  });

  it("relaunches the browser after it crashed", async () => {
    const browser = await renderer.browser?.get();
    const pid = browser?.process()?.pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(-(pid ?? 0), "SIGKILL");
    const result = await renderer.render(new URL(site.url("/about")));
    expect(result.status).toBe(200);
    expect((await renderer.browser?.get())?.process()?.pid).not.toBe(pid);
  });

  it("answers RATE_LIMITED when every slot and the short queue are taken", async () => {
    const small = createRenderer({
      config: parseConfig({
        ALLOW_PRIVATE_HOSTS: site.allowEntry,
        PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
        MAX_CONCURRENT_RENDERS: "1",
      }),
      maxQueued: 1,
    });
    try {
      const slow = [
        small.render(new URL(site.url("/never-loads")), { timeoutMs: 1_500 }),
        small.render(new URL(site.url("/never-loads")), { timeoutMs: 1_500 }),
      ];
      const error = await small.render(new URL(site.url("/about"))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("RATE_LIMITED");
      expect((error as ApiError).status).toBe(429);
      await Promise.allSettled(slow);
    } finally {
      await small.close();
    }
  });
});
