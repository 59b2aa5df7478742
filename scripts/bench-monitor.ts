/**
 * Monitor benchmark (`npm run bench:monitor`, after `npm run build`; part of `npm run bench`), loopback
 * only: a throw-away PostgreSQL, the fixture site, the corpus pages served from 127.0.0.1, and TWO
 * production instances with default settings (MONITOR_CONCURRENCY, MONITOR_POLL_SECONDS, … unset).
 * Rows, each with the load average beside it:
 *
 *  1. real pages: BENCH_MONITOR_PAGES (60) real saved pages (tests/fixtures/corpus and ../shared/corpus
 *     when present), one monitor each with a tracked link found on the page, all due at once: checks per
 *     hour from the first check's start to the last one's end (the database's own times). Baseline: a bare
 *     Chromium rendering the same pages two at a time (fresh context, load, content()), run before and
 *     after, mean. Also: CPU seconds per check (both servers' process trees, Chromium included, and the
 *     PostgreSQL cluster) against the bare render's, and the database's growth per check.
 *  2. fairness: BENCH_FAIR_BACKLOG (2,000) monitors of one organization due a minute ago, then one
 *     monitor of another organization falls due: how late its check starts.
 *  3. public analyses during that backlog: URL-mode latency against the same requests on the idle pair.
 *  4. Google's view (google-view.md §5; lib/google-view-cost.ts): the real pages' checks with the monitors'
 *     switch on against off, alternately, each fleet checked three times (first and confirming checks render
 *     Googlebot's view, checks of unchanged pages do not): checks per hour over a day of hourly checks
 *     (≥ 85 %), and the CPU of a check that renders it (≤ 2.1×).
 *
 * BENCH_MONITOR_ROWS=real,fairness,google picks rows (default: all three); BENCH_MONITOR_CONCURRENCY sets MONITOR_CONCURRENCY on both.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import puppeteer, { type Browser } from "puppeteer-core";
import { Agent, setGlobalDispatcher } from "undici";
import { BASE_CHROMIUM_ARGS } from "@/lib/analyzer/render/browser";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import { bareRender } from "./lib/bare-render";
import { treeCpuSeconds } from "./lib/cpu";
import { browserMainPids } from "./lib/processes";
import { CORPUS_DIR, SAMPLE_CORPUS_DIR } from "./lib/corpus";
import { startCorpusSite, type CorpusSite } from "./lib/corpus-site";
import { startFixtureSite, type FixtureSite } from "./lib/fixture-site";
import { loadAverage } from "./lib/machine";
import {
  checkSpan,
  drain,
  growthPerCheck,
  insertDueMonitors,
  newOrganization,
  tableSizes,
  type NewMonitor,
} from "./lib/monitor-fleet";
import { startPostgres, type PostgresServer } from "./lib/postgres";
import { googleViewCostRows } from "./lib/google-view-cost";
import { BROWSER_UA, startServer, type RunningServer } from "./lib/server-process";
import { median, percentile, sleep } from "./lib/stats";
import { BENCH_CHROMIUM } from "./lib/chromium";

// No kept-alive connections: the instances close an idle one after 5 s, and a request the bench sends after a
// long wait could go out on a connection as the server closes it ("other side closed").
setGlobalDispatcher(new Agent({ pipelining: 0 }));

const PAGES = Number(process.env.BENCH_MONITOR_PAGES ?? 60);
const BACKLOG = Number(process.env.BENCH_FAIR_BACKLOG ?? 2_000);
const PUBLIC_SAMPLES = Number(process.env.BENCH_PUBLIC_SAMPLES ?? 10);
const ROWS = new Set((process.env.BENCH_MONITOR_ROWS ?? "real,fairness,google").split(",").map((row) => row.trim()));
const MAX_PAGE_BYTES = 2_097_152;
/** Seconds of the idle pair's CPU measured before the real-pages row. */
const IDLE_SAMPLE_S = 20;

interface Row {
  work: string;
  linklens: string;
  baseline: string;
  ratio: string;
  target: string;
  holds: string;
  load: string;
}

interface CorpusPage {
  site: CorpusSite;
  dir: string;
  file: string;
}

async function corpusPages(): Promise<{ sites: CorpusSite[]; pages: CorpusPage[] }> {
  const dirs = [SAMPLE_CORPUS_DIR, ...(existsSync(CORPUS_DIR) ? [CORPUS_DIR] : [])];
  const sites: CorpusSite[] = [];
  const all: CorpusPage[] = [];
  for (const dir of dirs) {
    const site = await startCorpusSite(dir);
    sites.push(site);
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith(".html"))
      .sort()) {
      if (readFileSync(path.join(dir, file)).byteLength <= MAX_PAGE_BYTES) all.push({ site, dir, file });
    }
  }
  const count = Math.min(PAGES, all.length);
  return {
    sites,
    pages: Array.from({ length: count }, (_, k) => all[Math.floor((k * all.length) / count)] as CorpusPage),
  };
}

/** A link on the page to track (the first one that is not ignored), as the analysis resolves it. */
function trackedTarget(page: CorpusPage): string | undefined {
  const html = readFileSync(path.join(page.dir, page.file), "utf8");
  return analyzeDocument({ html, pageUrl: page.site.url(page.file), scripting: false }).links.find(
    (link) => link.linkType !== "ignored",
  )?.href;
}

/** The bare baseline: every page rendered once, `lanes` at a time, in one warm Chromium; wall and CPU seconds. */
async function bareRenders(urls: readonly string[], lanes: number): Promise<{ seconds: number; cpu: number }> {
  const browser: Browser = await puppeteer.launch({
    executablePath: BENCH_CHROMIUM,
    headless: true,
    pipe: true,
    args: [...BASE_CHROMIUM_ARGS],
  });
  const pid = browser.process()?.pid ?? 0;
  try {
    await bareRender(browser, urls[0] ?? "about:blank"); // warm
    const cpuBefore = treeCpuSeconds(pid);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < urls.length) {
          await bareRender(browser, urls[next++] as string);
        }
      }),
    );
    return { seconds: (performance.now() - started) / 1000, cpu: treeCpuSeconds(pid) - cpuBefore };
  } finally {
    await browser.close();
  }
}

/** Sequential public URL-mode analyses of fixture pages, alternating servers; their latencies (ms). */
async function publicLatencies(
  servers: RunningServer[],
  site: FixtureSite,
  samples: number,
  label: string,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const server = servers[i % servers.length] as RunningServer;
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/api/demo/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": BROWSER_UA },
      body: JSON.stringify({ url: site.url(`/p/${label}-${i}`) }),
    });
    await response.text();
    if (response.status !== 200) throw new Error(`public analyze: ${response.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

async function realPagesRow(context: Bench, pages: readonly CorpusPage[]): Promise<Row> {
  const { db, servers, postgres } = context;
  const load = loadAverage();
  const urls = pages.map((page) => page.site.url(page.file));
  const monitors: NewMonitor[] = pages.map((page) => ({ url: page.site.url(page.file), target: trackedTarget(page) }));
  const bareFirst = await bareRenders(urls, 2);
  const organization = await newOrganization(servers[0] as RunningServer, "real-pages");
  const cpuTrees = () =>
    [...servers.map((server) => server.process.pid ?? 0), postgres.pid].reduce(
      (sum, pid) => sum + treeCpuSeconds(pid),
      0,
    );
  // The same, in three parts: Chromium (what a remote browser would take), the Node servers, PostgreSQL.
  const cpuParts = () => {
    const chromium = servers
      .flatMap((server) => browserMainPids(server.process.pid ?? 0))
      .reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
    const all = servers.reduce((sum, server) => sum + treeCpuSeconds(server.process.pid ?? 0), 0);
    return { chromium, node: all - chromium, postgres: treeCpuSeconds(postgres.pid) };
  };
  // What the pair costs doing nothing (job polling, ticks, maintenance): CPU seconds per second.
  const idleFrom = cpuTrees();
  await sleep(IDLE_SAMPLE_S * 1000);
  const idlePerSecond = (cpuTrees() - idleFrom) / IDLE_SAMPLE_S;
  const sizesBefore = await tableSizes(db);
  const cpuBefore = cpuTrees();
  const partsBefore = cpuParts();
  const ids = await insertDueMonitors(db, organization, monitors, new Date());
  const wall = await drain(db, ids, "real pages");
  const cpu = cpuTrees() - cpuBefore;
  const partsAfter = cpuParts();
  const part = (name: "chromium" | "node" | "postgres") =>
    ((partsAfter[name] - partsBefore[name]) / ids.length).toFixed(2);
  const growth = growthPerCheck(sizesBefore, await tableSizes(db), ids.length);
  const span = await checkSpan(db, ids);
  const bareSecond = await bareRenders(urls, 2);
  const spanSeconds = (span.last.getTime() - span.first.getTime()) / 1000;
  const perHour = (ids.length / spanSeconds) * 3600;
  const bareSeconds = (bareFirst.seconds + bareSecond.seconds) / 2;
  const barePerHour = (urls.length / bareSeconds) * 3600;
  const ratio = perHour / barePerHour;
  console.log(
    `\nreal pages: ${ids.length} checks, outcomes ${JSON.stringify(span.outcomes)}; first start → last end ${spanSeconds.toFixed(1)} s (${Math.round(perHour)}/h); ` +
      `due → all stored ${wall.toFixed(1)} s (${Math.round((ids.length / wall) * 3600)}/h, dispatch included); bare 2 at a time ${bareFirst.seconds.toFixed(1)} s and ${bareSecond.seconds.toFixed(1)} s (${Math.round(barePerHour)}/h)`,
  );
  const idleShare = (idlePerSecond * wall) / ids.length;
  console.log(
    `CPU per check: ${(cpu / ids.length).toFixed(2)} s (two servers' trees with Chromium, and PostgreSQL: ${cpu.toFixed(1)} s for ${ids.length}), ` +
      `of which the idle pair's ${idleShare.toFixed(2)} s (${idlePerSecond.toFixed(3)} CPU s/s idle); bare render ${((bareFirst.cpu + bareSecond.cpu) / 2 / urls.length).toFixed(2)} s per page (browser only)`,
  );
  console.log(
    `CPU per check by part: Chromium ${part("chromium")} s, Node (server, workers, proxy, link checks) ${part("node")} s, PostgreSQL ${part("postgres")} s`,
  );
  console.log("database growth per check (rows, bytes of the rows, disk bytes with indexes and TOAST, page-granular):");
  console.table(
    growth.map((row) => ({
      table: row.table,
      rows: row.rows.toFixed(2),
      "tuple bytes": Math.round(row.tupleBytes),
      "disk bytes": Math.round(row.diskBytes),
    })),
  );
  return {
    work: `Monitor checks of ${ids.length} real pages, two instances, default settings`,
    linklens: `${Math.round(perHour)} checks/h; ${(cpu / ids.length).toFixed(2)} CPU s/check`,
    baseline: `${Math.round(barePerHour)} pages/h (bare Chromium, 2 at a time, mean of a run before and after)`,
    ratio: `${ratio.toFixed(2)}×`,
    target: "≥ 0.8×",
    holds: ratio >= 0.8 ? "yes" : "no",
    load: `${load} → ${loadAverage()}`,
  };
}

async function fairnessRows(context: Bench): Promise<Row[]> {
  const { db, servers, site } = context;
  const load = loadAverage();
  const idle = await publicLatencies(servers, site, PUBLIC_SAMPLES, "idle");
  const busyOrg = await newOrganization(servers[0] as RunningServer, "backlog");
  const otherOrg = await newOrganization(servers[1] as RunningServer, "other");
  await insertDueMonitors(
    db,
    busyOrg,
    Array.from({ length: BACKLOG }, (_, i) => ({ url: site.url(`/p/backlog-${i}`) })),
    new Date(Date.now() - 60_000),
  );
  // The backlog is under way (its first checks stored) before the other organization's check falls due.
  while ((await db.query("SELECT 1 FROM monitor_check WHERE organization_id = $1 LIMIT 4", [busyOrg])).rows.length < 4)
    await sleep(250);
  const dueAt = new Date();
  const [otherId] = await insertDueMonitors(
    db,
    otherOrg,
    [{ url: site.url("/p/other-org"), target: site.url("/p/ok") }],
    dueAt,
  );
  const busy = await publicLatencies(servers, site, PUBLIC_SAMPLES, "busy");
  await drain(db, [otherId as string], "the other organization's check", { limitMs: 600_000 });
  const started = await db.query<{ started_at: Date }>("SELECT started_at FROM monitor_check WHERE monitor_id = $1", [
    otherId,
  ]);
  const late = ((started.rows[0]?.started_at.getTime() ?? 0) - dueAt.getTime()) / 1000;
  const done = Number(
    (await db.query("SELECT count(*) AS n FROM monitor_check WHERE organization_id = $1", [busyOrg])).rows[0]?.n,
  );
  console.log(
    `\nfairness: the other organization's check started ${late.toFixed(1)} s after falling due; ${BACKLOG - done} of ${BACKLOG} backlog checks still due then`,
  );
  console.log(
    `public URL mode: idle p50 ${median(idle).toFixed(0)} ms, p90 ${percentile(idle, 90).toFixed(0)} ms; during the backlog p50 ${median(busy).toFixed(0)} ms, p90 ${percentile(busy, 90).toFixed(0)} ms`,
  );
  await db.query("DELETE FROM monitor WHERE organization_id = $1", [busyOrg]);
  const after = loadAverage();
  return [
    {
      work: `Another organization's due check while one has ${BACKLOG.toLocaleString("en-US")} due, two instances, default settings`,
      linklens: `started ${late.toFixed(1)} s late (${(BACKLOG - done).toLocaleString("en-US")} backlog checks still due)`,
      baseline: "—",
      ratio: "—",
      target: "< 60 s",
      holds: late < 60 ? "yes" : "no",
      load: `${load} → ${after}`,
    },
    {
      work: "Public URL-mode analysis during that backlog (priority over checks)",
      linklens: `p50 ${median(busy).toFixed(0)} ms, p90 ${percentile(busy, 90).toFixed(0)} ms`,
      baseline: `p50 ${median(idle).toFixed(0)} ms idle`,
      ratio: `${(median(busy) / median(idle)).toFixed(2)}×`,
      target: "≤ 1.5× (p50)",
      holds: median(busy) <= 1.5 * median(idle) ? "yes" : "no",
      load: `${load} → ${after}`,
    },
  ];
}

interface Bench {
  db: Client;
  servers: RunningServer[];
  postgres: PostgresServer;
  site: FixtureSite;
}

async function main(): Promise<void> {
  const loadAtStart = loadAverage();
  const postgres = await startPostgres();
  const site = await startFixtureSite();
  const corpus = ROWS.has("real") || ROWS.has("google") ? await corpusPages() : { sites: [], pages: [] };
  const url = await postgres.createDatabase();
  const db = new Client({ connectionString: url });
  const servers: RunningServer[] = [];
  const rows: Row[] = [];
  try {
    const env: Record<string, string> = {
      DATABASE_URL: url,
      PUPPETEER_EXECUTABLE_PATH: BENCH_CHROMIUM,
      BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-00",
      ALLOW_PRIVATE_HOSTS: [site.allowEntry, ...corpus.sites.map((corpusSite) => corpusSite.allowEntry)].join(","),
      RATE_LIMIT_PER_MINUTE: "100000",
      DEMO_URL_MONTHLY_BUDGET: "1000000",
      LOG_LEVEL: "warn",
      ...(process.env.BENCH_MONITOR_CONCURRENCY ? { MONITOR_CONCURRENCY: process.env.BENCH_MONITOR_CONCURRENCY } : {}),
    };
    await db.connect();
    console.log(
      `LinkLens monitor benchmark: two instances, default settings${env.MONITOR_CONCURRENCY ? ` but MONITOR_CONCURRENCY=${env.MONITOR_CONCURRENCY}` : ""}; load average ${loadAtStart}`,
    );
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
    const context: Bench = { db, servers, postgres, site };
    // Warm both browsers and worker pools.
    await publicLatencies(servers, site, 2, "warm");
    if (ROWS.has("real")) rows.push(await realPagesRow(context, corpus.pages));
    if (ROWS.has("fairness")) rows.push(...(await fairnessRows(context)));
    if (ROWS.has("google")) {
      const cpu = () =>
        [...servers.map((server) => server.process.pid ?? 0), postgres.pid].reduce(
          (sum, pid) => sum + treeCpuSeconds(pid),
          0,
        );
      const monitors = corpus.pages.map((page) => ({ url: page.site.url(page.file), target: trackedTarget(page) }));
      rows.push(...(await googleViewCostRows({ db, servers, cpu }, monitors)));
    }
  } catch (error) {
    for (const [index, server] of servers.entries())
      console.error(
        `instance ${index + 1} (${server.process.exitCode === null ? "running" : `exited ${server.process.exitCode}`}):\n${server.output().slice(-3000)}`,
      );
    throw error;
  } finally {
    console.log("\nMonitor rows (each against its baseline measured in this run; load average before → after):");
    console.table(rows);
    console.log(`load average at start ${loadAtStart}, at end ${loadAverage()}`);
    await db.end().catch(() => undefined);
    await Promise.all(servers.map((server) => server.stop()));
    for (const corpusSite of corpus.sites) await corpusSite.close();
    await site.close();
    await postgres.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
