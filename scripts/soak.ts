/**
 * Soak suite (`npm run test:soak`; needs `npm run build` first). Loopback only.
 *
 * SOAK_COUNT (500) URL-mode analyses in a row, one at a time, of a few pages of the local fixture
 * site, through the production server (limits and budget lifted, LINK_CHECK_MAX small so /many is
 * quick). After a warm-up, and at the end, it samples the memory of the server and its Chromium
 * processes and fails (exit 1) when:
 *   - an analysis did not answer 200 with the expected link count,
 *   - server + Chromium resident memory grew by SOAK_MAX_RSS_GROWTH_MIB (150) MiB or more,
 *   - there are more than two Chromium processes more than at the start (a leaked page or context
 *     keeps its renderer process alive; two spare for Chromium's own helpers coming and going),
 *   - the run takes longer than SOAK_MAX_MINUTES (20).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { startFixtureSite, MANY_LINKS, type FixtureSite } from "@/scripts/lib/fixture-site";
import { startServer, BROWSER_UA, type RunningServer } from "@/scripts/lib/server-process";
import { loadAverage, treeMemory, type TreeMemory } from "./lib/machine";
import { mib, ms, percentile, sleep } from "./lib/stats";

const COUNT = Number(process.env.SOAK_COUNT ?? 500);
const MAX_RSS_GROWTH_MIB = Number(process.env.SOAK_MAX_RSS_GROWTH_MIB ?? 150);
const MAX_EXTRA_CHROMIUM = 2;
const MAX_MINUTES = Number(process.env.SOAK_MAX_MINUTES ?? 20);
const WARM_UP = 8;
const PROGRESS_EVERY = 50;
/** Chromium processes of a closed context exit a moment after the close returns; wait before sampling. */
const SETTLE_MS = 2_000;

/** The pages cycled, with the link count each must report (see scripts/lib/fixture-site.ts). */
const PAGES: ReadonlyArray<{ path: string; links: number }> = [
  { path: "/scripted", links: 4 }, // one static link, three added by script (load, +300 ms, after a fetch)
  { path: "/", links: 3 },
  { path: "/many", links: MANY_LINKS },
  { path: "/robots/nofollow", links: 1 },
];

interface Outcome {
  ms: number;
  /** Empty when the answer was a 200 with the expected link count. */
  problem: string;
}

async function analyze(server: RunningServer, site: FixtureSite, page: (typeof PAGES)[number]): Promise<Outcome> {
  const start = performance.now();
  try {
    const response = await fetch(`${server.baseUrl}/api/demo/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": BROWSER_UA },
      body: JSON.stringify({ url: site.url(page.path) }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    const elapsed = performance.now() - start;
    if (response.status !== 200)
      return { ms: elapsed, problem: `${page.path}: ${response.status} ${text.slice(0, 300)}` };
    const total = (JSON.parse(text) as { stats?: { total?: number } }).stats?.total;
    return { ms: elapsed, problem: total === page.links ? "" : `${page.path}: ${total} links, expected ${page.links}` };
  } catch (error) {
    return { ms: performance.now() - start, problem: `${page.path}: ${String(error)}` };
  }
}

function describe(memory: TreeMemory): string {
  return (
    `server ${mib(memory.serverRss)} + Chromium ${mib(memory.chromiumRss)} = ${mib(memory.serverRss + memory.chromiumRss)}; ` +
    `${memory.chromiumProcesses} Chromium processes (${memory.chromiumRenderers} renderers)`
  );
}

async function settledMemory(server: RunningServer): Promise<TreeMemory> {
  await sleep(SETTLE_MS);
  return treeMemory(server.process.pid ?? 0);
}

interface SoakRun {
  latencies: number[];
  problems: string[];
  minutes: number;
  timedOut: boolean;
}

async function soak(server: RunningServer, site: FixtureSite): Promise<SoakRun> {
  const latencies: number[] = [];
  const problems: string[] = [];
  const start = Date.now();
  const deadline = start + MAX_MINUTES * 60_000;
  for (let i = 0; i < COUNT; i += 1) {
    if (Date.now() > deadline) return { latencies, problems, minutes: (Date.now() - start) / 60_000, timedOut: true };
    const page = PAGES[i % PAGES.length] ?? PAGES[0];
    if (!page) break;
    const outcome = await analyze(server, site, page);
    latencies.push(outcome.ms);
    if (outcome.problem) {
      problems.push(`#${i + 1} ${outcome.problem}`);
      console.error(`  #${i + 1} ${outcome.problem}`);
    }
    if ((i + 1) % PROGRESS_EVERY === 0) {
      const elapsedMin = (Date.now() - start) / 60_000;
      console.log(
        `  ${i + 1}/${COUNT} after ${elapsedMin.toFixed(1)} min: ${describe(treeMemory(server.process.pid ?? 0))}`,
      );
    }
  }
  return { latencies, problems, minutes: (Date.now() - start) / 60_000, timedOut: false };
}

function verdict(before: TreeMemory, after: TreeMemory, run: SoakRun): string[] {
  const failures: string[] = [];
  const growth = after.serverRss + after.chromiumRss - (before.serverRss + before.chromiumRss);
  if (growth >= MAX_RSS_GROWTH_MIB * 1024 * 1024)
    failures.push(`resident memory grew ${mib(growth)} (bound ${MAX_RSS_GROWTH_MIB} MiB)`);
  if (after.chromiumProcesses > before.chromiumProcesses + MAX_EXTRA_CHROMIUM) {
    failures.push(
      `Chromium processes ${before.chromiumProcesses} → ${after.chromiumProcesses} (bound: start + ${MAX_EXTRA_CHROMIUM})`,
    );
  }
  if (run.problems.length > 0)
    failures.push(`${run.problems.length} analyses did not answer 200 with the expected links`);
  if (run.timedOut) failures.push(`stopped after ${MAX_MINUTES} min with ${run.latencies.length}/${COUNT} analyses`);
  return failures;
}

async function main(): Promise<void> {
  if (!existsSync(path.resolve(__dirname, "..", "dist", "server.cjs"))) {
    throw new Error("dist/server.cjs is missing: run `npm run build` first");
  }
  const site = await startFixtureSite();
  const server = await startServer({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    RATE_LIMIT_PER_MINUTE: "100000000",
    DEMO_URL_MONTHLY_BUDGET: "100000000",
    LINK_CHECK_MAX: "10",
  });
  try {
    console.log(
      `Soak: ${COUNT} URL-mode analyses in a row of ${PAGES.map((p) => p.path).join(", ")}; load average ${loadAverage()}`,
    );
    // Warm-up: browser launch, first contexts, route loading; the baseline is taken after it.
    for (let i = 0; i < WARM_UP; i += 1) {
      const page = PAGES[i % PAGES.length];
      if (page) await analyze(server, site, page);
    }
    const before = await settledMemory(server);
    console.log(`start (after ${WARM_UP} warm-up analyses): ${describe(before)}`);

    const run = await soak(server, site);
    const after = await settledMemory(server);
    console.log(`end: ${describe(after)}`);

    const growth = after.serverRss + after.chromiumRss - (before.serverRss + before.chromiumRss);
    const serverGrowth = after.serverRss - before.serverRss;
    console.log(
      `growth: ${mib(growth)} in total (server ${mib(serverGrowth)}); Chromium processes ${before.chromiumProcesses} → ${after.chromiumProcesses}`,
    );
    const perMinute = run.latencies.length / run.minutes;
    console.log(
      `${run.latencies.length} analyses in ${run.minutes.toFixed(1)} min: ${perMinute.toFixed(0)} analyses/min, ` +
        `p50 ${ms(percentile(run.latencies, 50))}, p99 ${ms(percentile(run.latencies, 99))}, max ${ms(Math.max(...run.latencies))}; ` +
        `${run.problems.length} not 200 or wrong; load average ${loadAverage()}`,
    );
    console.log(
      `bounds: total RSS growth < ${MAX_RSS_GROWTH_MIB} MiB, Chromium processes ≤ start + ${MAX_EXTRA_CHROMIUM}, every analysis 200 with the expected links`,
    );

    const failures = verdict(before, after, run);
    console.log(failures.length === 0 ? "SOAK: PASS" : `SOAK: FAIL\n  ${failures.join("\n  ")}`);
    process.exitCode = failures.length === 0 ? 0 : 1;
  } finally {
    await server.stop();
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
