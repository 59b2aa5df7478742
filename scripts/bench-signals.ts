/**
 * What the placement verdict's signals cost a monitor check (`npm run bench:signals`, after `npm run
 * build` for the worker pool), loopback only:
 *   BENCH_ROUNDS=2 BENCH_SHARED_PAGES=30 npm run bench:signals
 *
 * The real pages of tests/fixtures/corpus (and up to BENCH_SHARED_PAGES of ../shared/corpus when it is
 * beside the checkout) are served from 127.0.0.1; each gets a monitor on a throw-away PostgreSQL tracking
 * the first absolute link of its markup. Each round checks every page twice through lib/monitor/check.ts
 * (the production check: render through the analyzer's front door, one transaction), once with the
 * signals (visibility pass, raw HTML, robots.txt) and once without, in alternating order, one check at a
 * time (MONITOR_CONCURRENCY 1). Measured in the same run, so machine load weighs on both arms alike:
 *  - checks per hour: 3,600 s / mean wall time of a check;
 *  - CPU seconds per check: this process (Node, its worker threads) plus every Chromium process under it
 *    (live ones, and the renderers they reaped: cutime/cstime), per check;
 * and the machine's load average before and after. Target: checks per hour with signals ≥ 90 % of without.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { inspectUrl, shutdownAnalyzer } from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import { openDatabase } from "@/lib/db/client";
import { organization } from "@/lib/db/schema";
import { monitor, trackedLink } from "@/lib/db/schema/monitors";
import { runCheck, type CheckDeps } from "@/lib/monitor/check";
import { SAMPLE_CORPUS_DIR, sharedCorpusDir } from "./lib/corpus";
import { startCorpusSite, type CorpusSite } from "./lib/corpus-site";
import { loadAverage } from "./lib/machine";
import { startPostgres } from "./lib/postgres";
import { descendants } from "./lib/processes";
import { median } from "./lib/stats";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SHARED_PAGES = Number(process.env.BENCH_SHARED_PAGES ?? 30);
const CLOCK_TICKS = 100;

/** CPU seconds of a process from /proc: own user + system, and its reaped children's. */
function cpuOf(pid: number | "self"): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14–17 of stat (utime, stime, cutime, cstime) are 11–14 after the command name.
    return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** This process and every live descendant (Chromium), each with its reaped children. */
function treeCpu(): number {
  return cpuOf("self") + descendants(process.pid).reduce((sum, { pid }) => sum + cpuOf(pid), 0);
}

/** The first absolute http(s) link of a page's markup: what its monitor tracks (exact match). */
function firstLink(file: string): string | null {
  const html = readFileSync(file, "utf8");
  for (const match of html.matchAll(/<a\b[^>]*\bhref\s*=\s*["'](https?:\/\/[^"'\s#]+)/gi)) {
    const url = URL.parse(match[1] ?? "");
    if (url) return url.href;
  }
  return null;
}

interface Arm {
  wallMs: number[];
  cpuSeconds: number;
  checks: number;
  pageErrors: number;
}

async function main(): Promise<void> {
  const dirs = [SAMPLE_CORPUS_DIR, ...(sharedCorpusDir() ? [sharedCorpusDir() as string] : [])];
  const sites: CorpusSite[] = [];
  for (const dir of dirs) sites.push(await startCorpusSite(dir));
  const postgres = await startPostgres();
  const config = parseConfig({
    DATABASE_URL: await postgres.createDatabase(),
    ALLOW_PRIVATE_HOSTS: sites.map((site) => site.allowEntry).join(","),
    PUPPETEER_EXECUTABLE_PATH: process.env.PUPPETEER_EXECUTABLE_PATH ?? "/usr/bin/chromium",
    LINK_CHECK_TIMEOUT_MS: "2000",
    ANALYSIS_CLIENT_BUDGET_MS: "36000000",
    LOG_LEVEL: "error",
  });
  const database = openDatabase({ databaseUrl: config.DATABASE_URL ?? "", dataDir: "" });
  await database.migrate();
  const db = database.db;
  const organizationId = randomUUID();
  await db.insert(organization).values({ id: organizationId, name: "Bench", slug: `bench-${organizationId}`, createdAt: new Date() });

  // One monitor per page, tracking the first absolute link of its markup.
  const pages: { monitorId: string; file: string }[] = [];
  for (const [index, site] of sites.entries()) {
    const files = index === 0 ? site.files : site.files.slice(0, SHARED_PAGES);
    for (const file of files) {
      const target = firstLink(path.join(dirs[index] as string, file));
      if (!target) continue;
      const monitorId = randomUUID();
      await db.insert(monitor).values({ id: monitorId, organizationId, url: site.url(file), intervalMinutes: 1440, nextCheckAt: new Date() });
      await db.insert(trackedLink).values({ id: randomUUID(), organizationId, monitorId, target, match: "exact", source: "import" });
      pages.push({ monitorId, file });
    }
  }

  const deps = (signals: boolean): CheckDeps => ({
    db,
    settings: config,
    now: () => new Date(),
    random: () => 0,
    leaseMs: 120_000,
    // The production check, with the analyzer asked for signals or not.
    inspect: (url, options) => inspectUrl(url, { ...options, signals }),
  });
  const arms: Record<"on" | "off", Arm> = { on: { wallMs: [], cpuSeconds: 0, checks: 0, pageErrors: 0 }, off: { wallMs: [], cpuSeconds: 0, checks: 0, pageErrors: 0 } };
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
    return { name, perHour: 3_600_000 / mean, mean, median: median(arm.wallMs), cpu: arm.cpuSeconds / arm.checks, checks: arm.checks, pageErrors: arm.pageErrors };
  });
  const [off, on] = rows as [(typeof rows)[number], (typeof rows)[number]];
  console.log("");
  console.log(`signals   checks  page errors  mean check  median check  checks/hour  CPU s/check`);
  for (const row of rows) {
    console.log(`${row.name.padEnd(9)} ${String(row.checks).padStart(6)}  ${String(row.pageErrors).padStart(11)}  ${row.mean.toFixed(0).padStart(8)} ms  ${row.median.toFixed(0).padStart(9)} ms  ${row.perHour.toFixed(0).padStart(11)}  ${row.cpu.toFixed(3).padStart(11)}`);
  }
  const ratio = on.perHour / off.perHour;
  console.log(`with / without signals: checks per hour ${(ratio * 100).toFixed(1)} % (target ≥ 90 %: ${ratio >= 0.9 ? "met" : "NOT met"}), CPU per check ${((on.cpu / off.cpu) * 100).toFixed(1)} %`);
  console.log(`load average before ${loadBefore}, after ${loadAfter} (2 cores, shared)`);

  const [sample] = await db.select({ verdict: trackedLink.verdict }).from(trackedLink).where(eq(trackedLink.monitorId, pages[0]?.monitorId ?? "")).limit(1);
  console.log(`a verdict, to show the signals ran: ${JSON.stringify(sample?.verdict ?? null)}`);
  await shutdownAnalyzer();
  await database.close();
  await postgres.stop();
  for (const site of sites) await site.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
