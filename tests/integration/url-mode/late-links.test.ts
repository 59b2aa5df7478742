import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRenderer, type Renderer } from "@/lib/analyzer/render/renderer";
import { parseConfig } from "@/lib/config";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { LATE_LINKS } from "@/scripts/lib/late-links";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * The settle rules (lib/analyzer/render/settle.ts) with a real Chromium: no late link is lost, whichever way
 * the page adds it (a 1.5 s timer, a slow fetch read in a then-chain, an animation-frame chain, work the
 * load event starts, a script inserted after load, microtask storms, a polling interval, a timer chain),
 * and a page that never stops changing small things (tickers, a carousel, an animation loop, pings) is
 * captured long before the cap.
 */

/** A cap far above every rule's horizon, so a test passing because the cap ended the wait is impossible. */
const SETTLE_CAP_MS = 12_000;
let site: FixtureSite;
let renderer: Renderer;

beforeAll(async () => {
  site = await startFixtureSite();
  const config = parseConfig({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    RENDER_TIMEOUT_MS: "20000",
  });
  renderer = createRenderer({ config, settleMaxMs: SETTLE_CAP_MS });
});

afterAll(async () => {
  await renderer?.close();
  await site?.close();
});

function lateLinks(html: string): string[] {
  return [...html.matchAll(/href="\/late-link\/([^"]+)"/g)].map((match) => match[1] ?? "");
}

describe("settle: late links", () => {
  it.each(Object.entries(LATE_LINKS))("%s: every late link is captured", async (path, count) => {
    const result = await renderer.render(new URL(site.url(path)));
    const found = lateLinks(result.html);
    expect(found, `${path}: ${found.join(", ")}; settle ${result.timings.settle?.toFixed(0)} ms`).toHaveLength(count);
    // The wait ended on the rule, not on the cap.
    expect(result.timings.settle ?? 0).toBeLessThan(SETTLE_CAP_MS - 1_000);
  });

  it("a page that keeps ticking (clock, carousel, animation loop, pings) is captured once its young work is done, not at the cap", async () => {
    const result = await renderer.render(new URL(site.url("/late/busy-forever")));
    expect(result.html).toContain('href="/static"');
    // The 1 s self-rescheduling timer and the animation loop are waited for while young (2 s, 1 s), then no more.
    expect(result.timings.settle ?? 0).toBeLessThan(4_000);
  });

  it("a page with nothing left to do is captured right after load", async () => {
    const settles: number[] = [];
    for (let i = 0; i < 3; i += 1)
      settles.push((await renderer.render(new URL(site.url("/static")))).timings.settle ?? 0);
    // The old rule waited at least 150 ms after the last DOM change and 250 ms after the last request.
    expect(Math.min(...settles)).toBeLessThan(250);
  });
});
