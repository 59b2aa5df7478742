/**
 * URL-mode benchmark on the local fixture site (no internet needed):
 *   node --import tsx scripts/bench-url.ts [--runs N]
 *
 * Prints, in one run and one process:
 *  - cold render: first render (browser launch + proxy start + render);
 *  - warm render: median of N renders of the same page through the whole guarded path;
 *  - bare Puppeteer: median of N plain page.goto(waitUntil load) + page.content() of that page in the
 *    same warm browser, no context, no proxy, no settle: the floor we compare against (and the same
 *    in a fresh incognito context, to show what per-request isolation alone costs);
 *  - link check of the 300-link page (300 unique URLs, LINK_CHECK_MAX raised to 300).
 */
import { createRenderer } from "@/lib/analyzer/render/renderer";
import { checkLinks } from "@/lib/analyzer/links/check-links";
import { parseConfig } from "@/lib/config";
import { startFixtureSite, MANY_LINKS } from "@/scripts/lib/fixture-site";
import { BENCH_CHROMIUM } from "./lib/chromium";

const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg !== -1 ? Number(process.argv[runsArg + 1]) : 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

async function main(): Promise<void> {
  const site = await startFixtureSite();
  const config = parseConfig({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    PUPPETEER_EXECUTABLE_PATH: BENCH_CHROMIUM,
    LINK_CHECK_MAX: String(MANY_LINKS),
  });
  const renderer = createRenderer({ config });
  const pages = ["/scripted", "/many"];
  try {
    const results: Array<Record<string, string>> = [];
    let cold = 0;
    for (const path of pages) {
      const url = new URL(site.url(path));
      if (cold === 0) [cold] = await time(() => renderer.render(url));
      const warm: number[] = [];
      for (let i = 0; i < RUNS; i += 1) warm.push((await time(() => renderer.render(url)))[0]);

      // The bare baseline: same browser, default context, no proxy, no interception, no settle wait.
      const browser = await renderer.browser?.get();
      if (!browser) throw new Error("no browser");
      const bare: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const [ms] = await time(async () => {
          const page = await browser.newPage();
          try {
            await page.goto(url.href, { waitUntil: "load" });
            await page.content();
          } finally {
            await page.close();
          }
        });
        bare.push(ms);
      }
      // The same, in a fresh incognito context per run: isolates the cost of per-request isolation.
      const bareContext: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const [ms] = await time(async () => {
          const context = await browser.createBrowserContext();
          try {
            const page = await context.newPage();
            await page.goto(url.href, { waitUntil: "load" });
            await page.content();
          } finally {
            await context.close();
          }
        });
        bareContext.push(ms);
      }
      const warmMedian = median(warm);
      const bareMedian = median(bare);
      results.push({
        page: path,
        "warm render (median ms)": warmMedian.toFixed(0),
        "bare puppeteer (median ms)": bareMedian.toFixed(0),
        "bare + fresh context (median ms)": median(bareContext).toFixed(0),
        "warm / bare": (warmMedian / bareMedian).toFixed(2),
      });
    }
    console.log(`Chromium: ${BENCH_CHROMIUM}; ${RUNS} runs per figure`);
    console.log(`cold render (launch + proxy + render of ${pages[0]}): ${cold.toFixed(0)} ms`);
    console.table(results);
    console.log(
      "Note: warm render includes a fresh incognito context, a proxy session and the post-load quiet wait (≥500 ms) that catches late script links; bare does none of these.",
    );

    const rendered = await renderer.render(new URL(site.url("/many")));
    const links = [...rendered.html.matchAll(/href="([^"]+)"/g)].map(
      (match) => new URL(match[1] ?? "", rendered.finalUrl).href,
    );
    const checks: number[] = [];
    let size = 0;
    for (let i = 0; i < 3; i += 1) {
      const [ms, statuses] = await time(() => checkLinks(links, { config }));
      checks.push(ms);
      size = statuses.size;
    }
    const perLink = median(checks) / size;
    console.log(
      `link check of /many: ${links.length} links, ${size} checked, median ${median(checks).toFixed(0)} ms ` +
        `(${perLink.toFixed(1)} ms per link; LINK_CHECK_CONCURRENCY ${config.LINK_CHECK_CONCURRENCY}, 2 per host: one host here, so 2 at a time)`,
    );
  } finally {
    await renderer.close();
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
