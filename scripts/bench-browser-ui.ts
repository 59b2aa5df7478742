/**
 * What Chromium's own UI pages cost a render (`npm run bench:browser-ui`; `BENCH_ROUNDS`, `BENCH_PAGES`,
 * `BENCH_KEEP_MS`), loopback only:
 *
 * Two warm browsers launched side by side with BASE_CHROMIUM_ARGS: one as LinkLens launches it, one with
 * BROWSER_UI_FEATURES switched back on (lib/analyzer/render/browser.ts). Each renders the same corpus pages
 * (tests/fixtures/corpus, plus ../shared/corpus when it is beside the checkout) served from 127.0.0.1, the
 * way a render does: a fresh incognito context, load, the DOM read, the page left open BENCH_KEEP_MS (a
 * kept evidence page; 0 for none), the context closed. The browsers take turns page by page, so the load of
 * the machine falls on both. Printed per arm: wall ms a render (mean and median), CPU seconds a render
 * (the browser's whole process tree), and the browser UI pages (`browser_ui` targets) it made.
 */
import puppeteer, { type Browser, type CDPSession } from "puppeteer-core";
import { BASE_CHROMIUM_ARGS, BROWSER_UI_FEATURES } from "@/lib/analyzer/render/browser";
import { bareRender } from "./lib/bare-render";
import { BENCH_CHROMIUM } from "./lib/chromium";
import { SAMPLE_CORPUS_DIR, sharedCorpusDir } from "./lib/corpus";
import { startCorpusSite, type CorpusSite } from "./lib/corpus-site";
import { treeCpuSeconds } from "./lib/cpu";
import { loadAverage } from "./lib/machine";
import { median } from "./lib/stats";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PAGES = Number(process.env.BENCH_PAGES ?? 40);
const KEEP_MS = Number(process.env.BENCH_KEEP_MS ?? 300);
// The full browser: its UI pages are what this measures (the headless shell has none).
const EXECUTABLE = BENCH_CHROMIUM;

interface Arm {
  name: string;
  browser: Browser;
  pid: number;
  watcher: CDPSession;
  uiPages: number;
  wallMs: number[];
  cpuSeconds: number;
}

/** BASE_CHROMIUM_ARGS, with BROWSER_UI_FEATURES taken out of its --disable-features list when `withUi`. */
function launchArgs(withUi: boolean): string[] {
  return BASE_CHROMIUM_ARGS.map((arg) => {
    if (!withUi || !arg.startsWith("--disable-features=")) return arg;
    const kept = arg
      .slice("--disable-features=".length)
      .split(",")
      .filter((feature) => !BROWSER_UI_FEATURES.includes(feature));
    return `--disable-features=${kept.join(",")}`;
  });
}

async function launch(name: string, withUi: boolean): Promise<Arm> {
  // Launched as lib/analyzer/render/browser.ts launches (Puppeteer merges its own --disable-features into
  // ours), one flag apart.
  const browser = await puppeteer.launch({
    executablePath: EXECUTABLE,
    headless: true,
    pipe: true,
    args: launchArgs(withUi),
    defaultViewport: { width: 1280, height: 800 },
  });
  const watcher = await browser.target().createCDPSession();
  const arm: Arm = { name, browser, pid: browser.process()?.pid ?? 0, watcher, uiPages: 0, wallMs: [], cpuSeconds: 0 };
  watcher.on("Target.targetCreated", ({ targetInfo }) => {
    if (targetInfo.type === "browser_ui") arm.uiPages += 1;
  });
  await watcher.send("Target.setDiscoverTargets", { discover: true, filter: [{}] });
  return arm;
}

async function renderOnce(arm: Arm, url: string): Promise<void> {
  const cpu = treeCpuSeconds(arm.pid);
  const started = performance.now();
  await bareRender(arm.browser, url, KEEP_MS);
  arm.wallMs.push(performance.now() - started - KEEP_MS);
  arm.cpuSeconds += treeCpuSeconds(arm.pid) - cpu;
}

async function main(): Promise<void> {
  const shared = sharedCorpusDir();
  const sites: CorpusSite[] = [
    await startCorpusSite(SAMPLE_CORPUS_DIR),
    ...(shared ? [await startCorpusSite(shared)] : []),
  ];
  const urls = sites.flatMap((site) => site.files.map((file) => site.url(file))).slice(0, PAGES);
  const arms = [await launch("as launched (UI pages off)", false), await launch("UI pages on", true)];
  const loadBefore = loadAverage();
  console.log(
    `${urls.length} corpus pages, ${ROUNDS} round(s), each page kept open ${KEEP_MS} ms, load average ${loadBefore}`,
  );
  try {
    for (const arm of arms) for (const url of urls.slice(0, 3)) await renderOnce(arm, url); // warm both
    for (const arm of arms) {
      arm.wallMs = [];
      arm.cpuSeconds = 0;
      arm.uiPages = 0;
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, url] of urls.entries()) {
        // Alternate which browser goes first, so neither always follows the other's close.
        const order = (index + round) % 2 === 0 ? arms : [...arms].reverse();
        for (const arm of order) await renderOnce(arm, url);
      }
    }
    // A closed context's renderer may still be exiting: give both the same moment before the last reading.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    console.log("");
    console.log("arm                          renders  mean render  median render  CPU s/render  UI pages made");
    for (const arm of arms) {
      const mean = arm.wallMs.reduce((sum, ms) => sum + ms, 0) / arm.wallMs.length;
      console.log(
        `${arm.name.padEnd(28)} ${String(arm.wallMs.length).padStart(7)}  ${mean.toFixed(0).padStart(8)} ms  ${median(arm.wallMs).toFixed(0).padStart(10)} ms  ${(arm.cpuSeconds / arm.wallMs.length).toFixed(3).padStart(12)}  ${String(arm.uiPages).padStart(13)}`,
      );
    }
    const [off, on] = arms as [Arm, Arm];
    console.log(
      `UI pages off / on: CPU per render ${((off.cpuSeconds / on.cpuSeconds) * 100).toFixed(0)} %, mean wall ${((off.wallMs.reduce((a, b) => a + b, 0) / on.wallMs.reduce((a, b) => a + b, 0)) * 100).toFixed(0)} %`,
    );
    console.log(`load average before ${loadBefore}, after ${loadAverage()} (2 cores, shared)`);
  } finally {
    for (const arm of arms) await arm.browser.close().catch(() => undefined);
    for (const site of sites) await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
