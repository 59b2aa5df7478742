import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runUrlAnalysis } from "@/lib/analyzer/analyze-url";
import { createRenderer, type Renderer } from "@/lib/analyzer/render/renderer";
import { RobotsTxtCache } from "@/lib/analyzer/robots/robots-txt";
import { AnalyzerPool } from "@/lib/analyzer/worker/pool";
import { parseConfig, type Config } from "@/lib/config";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * robots.txt beside the render (placement-verdict.md's robotsTxt signal; docs/account-api.md): a check
 * asks for the requested URL's robots.txt while the page renders, so a robots.txt that stalls costs
 * about max(render, robots deadline), not their sum. Real Chromium against two local servers. Not timed:
 * the page's server holds its answer until robots.txt has been asked for (or a cap far above the
 * robots deadline), so the test sees the order of the two requests, whatever the machine's load.
 * `npm run build` first (the worker pool is dist/analyzer-worker.cjs).
 */

const ROBOTS_DEADLINE_MS = 1_000;
/** How long the page waits for robots.txt to be asked for before it answers anyway. */
const PAGE_HOLD_CAP_MS = 8_000;
const PAGE = '<!doctype html><title>A review</title><p>Read <a href="https://mysite.example/">the shop</a>.</p>';

interface Origin {
  server: http.Server;
  url: (path: string) => string;
  hostPort: string;
}

async function listen(handler: http.RequestListener): Promise<Origin> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: (path) => `http://127.0.0.1:${port}${path}`, hostPort: `127.0.0.1:${port}` };
}

/** What the page's origin saw: how often robots.txt was asked for, and why the page got its answer. */
const seen: { robotsAsked: number; pageAnswered: "robots asked first" | "hold cap" | null } = {
  robotsAsked: 0,
  pageAnswered: null,
};
let robotsAsked: () => void = () => undefined;

let pageOrigin: Origin;
let otherOrigin: Origin;
let settings: Config;
let pool: AnalyzerPool;
let renderer: Renderer;

beforeAll(async () => {
  pageOrigin = await listen((req, res) => {
    if (req.url === "/robots.txt") {
      seen.robotsAsked += 1;
      robotsAsked();
      return; // Stalls: never answered (the connection closes with the server).
    }
    if (req.url === "/moved") {
      res.writeHead(302, { Location: otherOrigin.url("/landing") }).end();
      return;
    }
    if (req.url !== "/page") {
      res.writeHead(404).end();
      return;
    }
    // The page is answered once robots.txt has been asked for, or at the cap: the order is what counts.
    const answer = (why: NonNullable<typeof seen.pageAnswered>) => {
      seen.pageAnswered = why;
      clearTimeout(cap);
      robotsAsked = () => undefined;
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(PAGE);
    };
    const cap = setTimeout(() => answer("hold cap"), PAGE_HOLD_CAP_MS);
    if (seen.robotsAsked > 0) answer("robots asked first");
    else robotsAsked = () => answer("robots asked first");
  });
  otherOrigin = await listen((req, res) => {
    if (req.url === "/robots.txt")
      res.writeHead(200, { "Content-Type": "text/plain" }).end("User-agent: *\nDisallow: /landing\n");
    else res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(PAGE);
  });
  settings = parseConfig({
    ALLOW_PRIVATE_HOSTS: `${pageOrigin.hostPort},${otherOrigin.hostPort}`,
    PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    RENDER_TIMEOUT_MS: "20000",
  });
  pool = new AnalyzerPool({ threads: 1, timeoutMs: 30_000 });
  renderer = createRenderer({ config: settings });
});

afterAll(async () => {
  await renderer?.close();
  await pool?.close();
  for (const origin of [pageOrigin, otherOrigin]) {
    origin?.server.closeAllConnections();
    origin?.server.close();
  }
});

function analyse(path: string, origin: () => Origin, robots: RobotsTxtCache) {
  return runUrlAnalysis(new URL(origin().url(path)), {
    pool,
    renderer,
    settings,
    signals: { robots },
    checkLinks: () => false,
  });
}

describe("robots.txt beside the render", () => {
  it("is asked for before the page has loaded, and a stalled one ends at its own deadline", async () => {
    const robots = new RobotsTxtCache({ settings, timeoutMs: ROBOTS_DEADLINE_MS });
    const report = await analyse("/page", () => pageOrigin, robots);
    // Asked for only after the render (as it was), robots.txt would come after the page's whole hold cap.
    expect(seen.pageAnswered).toBe("robots asked first");
    expect(seen.robotsAsked).toBe(1);
    expect(report.page.robotsTxt).toBe("unavailable");
    expect(report.analysis.links.map((link) => link.href)).toEqual(["https://mysite.example/"]);
    expect(robots.fetches).toBe(1);
  });

  it("after a redirect to another origin, the final URL's robots.txt decides", async () => {
    const robots = new RobotsTxtCache({ settings, timeoutMs: ROBOTS_DEADLINE_MS });
    const report = await analyse("/moved", () => pageOrigin, robots);
    expect(report.page.finalUrl).toBe(otherOrigin.url("/landing"));
    expect(report.page.robotsTxt).toBe("disallowed");
    // The requested origin's (asked beside the render) and the final one's.
    expect(robots.fetches).toBe(2);
  });
});
