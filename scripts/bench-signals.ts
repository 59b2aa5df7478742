/**
 * What the placement verdict's signals cost a monitor check (`npm run bench:signals`, after `npm run
 * build` for the worker pool), loopback only:
 *   BENCH_ROUNDS=2 BENCH_SHARED_PAGES=30 npm run bench:signals
 *
 * The real pages of tests/fixtures/corpus (and up to BENCH_SHARED_PAGES of ../shared/corpus when it is
 * beside the checkout) are served from 127.0.0.1; each gets a monitor on a throw-away PostgreSQL tracking
 * the first absolute link of its markup. Each round checks every page twice through lib/monitor/run-check.ts
 * (the production check: render through the analyzer's front door, one transaction), once with the
 * signals (visibility pass, raw HTML, robots.txt) and once without, in alternating order, one check at a
 * time (MONITOR_CONCURRENCY 1). Measured in the same run, so machine load weighs on both arms alike:
 *  - checks per hour: 3,600 s / mean wall time of a check;
 *  - CPU seconds per check: this process (Node, its worker threads) plus every Chromium process under it
 *    (live ones, and the renderers they reaped: cutime/cstime), per check;
 * and the machine's load average before and after. Target: checks per hour with signals ≥ 90 % of without.
 */
import { eq } from "drizzle-orm";
import { inspectUrl, shutdownAnalyzer } from "@/lib/analyzer";
import { trackedLink } from "@/lib/db/schema/monitors";
import { runCheck, type CheckDeps } from "@/lib/monitor/run-check";
import { startCorpusMonitors } from "./lib/corpus-monitors";
import { treeCpuSeconds } from "./lib/cpu";
import { loadAverage } from "./lib/machine";
import { median } from "./lib/stats";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SHARED_PAGES = Number(process.env.BENCH_SHARED_PAGES ?? 30);

/** This process (Node, its worker threads) and every Chromium process under it. */
const treeCpu = () => treeCpuSeconds(process.pid);

interface Arm {
  wallMs: number[];
  cpuSeconds: number;
  checks: number;
  pageErrors: number;
}

async function main(): Promise<void> {
  const corpus = await startCorpusMonitors(SHARED_PAGES);
  const { config, organizationId, pages, dirs } = corpus;
  const db = corpus.database.db;

  const deps = (signals: boolean): CheckDeps => ({
    db,
    settings: config,
    now: () => new Date(),
    random: () => 0,
    leaseMs: 120_000,
    // The production check, with the analyzer asked for signals or not.
    inspect: (url, options) => inspectUrl(url, { ...options, signals }),
  });
  const arms: Record<"on" | "off", Arm> = {
    on: { wallMs: [], cpuSeconds: 0, checks: 0, pageErrors: 0 },
    off: { wallMs: [], cpuSeconds: 0, checks: 0, pageErrors: 0 },
  };
  const once = async (name: "on" | "off", monitorId: string) => {
    const arm = arms[name];
    const cpu = treeCpu();
    const started = performance.now();
    const result = await runCheck(deps(name === "on"), organizationId, monitorId, { kind: "manual" });
    arm.wallMs.push(performance.now() - started);
    arm.cpuSeconds += treeCpu() - cpu;
    arm.checks += 1;
    if (result.status === "applied" && result.outcome === "page_error") arm.pageErrors += 1;
  };

  const loadBefore = loadAverage();
  console.log(`${pages.length} corpus pages (${dirs.join(", ")}), ${ROUNDS} round(s), load average ${loadBefore}`);
  // Warm the browser, the pool and robots.txt's cache: the first render of a process is not a check's cost.
  await once("on", pages[0]?.monitorId ?? "");
  arms.on = { wallMs: [], cpuSeconds: 0, checks: 0, pageErrors: 0 };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, page] of pages.entries()) {
      const order: ("on" | "off")[] = (index + round) % 2 === 0 ? ["off", "on"] : ["on", "off"];
      for (const name of order) await once(name, page.monitorId);
    }
    console.log(`  round ${round + 1}: ${arms.on.checks + arms.off.checks} checks, load average ${loadAverage()}`);
  }
  const loadAfter = loadAverage();

  const rows = (["off", "on"] as const).map((name) => {
    const arm = arms[name];
    const mean = arm.wallMs.reduce((sum, ms) => sum + ms, 0) / arm.wallMs.length;
    return {
      name,
      perHour: 3_600_000 / mean,
      mean,
      median: median(arm.wallMs),
      cpu: arm.cpuSeconds / arm.checks,
      checks: arm.checks,
      pageErrors: arm.pageErrors,
    };
  });
  const [off, on] = rows as [(typeof rows)[number], (typeof rows)[number]];
  console.log("");
  console.log(`signals   checks  page errors  mean check  median check  checks/hour  CPU s/check`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(9)} ${String(row.checks).padStart(6)}  ${String(row.pageErrors).padStart(11)}  ${row.mean.toFixed(0).padStart(8)} ms  ${row.median.toFixed(0).padStart(9)} ms  ${row.perHour.toFixed(0).padStart(11)}  ${row.cpu.toFixed(3).padStart(11)}`,
    );
  }
  const ratio = on.perHour / off.perHour;
  console.log(
    `with / without signals: checks per hour ${(ratio * 100).toFixed(1)} % (target ≥ 90 %: ${ratio >= 0.9 ? "met" : "NOT met"}), CPU per check ${((on.cpu / off.cpu) * 100).toFixed(1)} %`,
  );
  console.log(`load average before ${loadBefore}, after ${loadAfter} (2 cores, shared)`);

  const [sample] = await db
    .select({ verdict: trackedLink.verdict })
    .from(trackedLink)
    .where(eq(trackedLink.monitorId, pages[0]?.monitorId ?? ""))
    .limit(1);
  console.log(`a verdict, to show the signals ran: ${JSON.stringify(sample?.verdict ?? null)}`);
  await shutdownAnalyzer();
  await corpus.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
