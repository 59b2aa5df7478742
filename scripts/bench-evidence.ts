/**
 * What evidence costs a monitor check (`npm run bench:evidence`, after `npm run build` for the worker
 * pool), loopback only:
 *   BENCH_ROUNDS=2 BENCH_SHARED_PAGES=30 npm run bench:evidence
 *
 * The real corpus pages served from 127.0.0.1, a monitor per page on a throw-away PostgreSQL
 * (scripts/lib/corpus-monitors.ts). Every check is the production one (lib/monitor/run-check.ts); links are
 * not status-checked here (no internet: every external target would be "broken" and wait for its
 * confirmation), the same in every arm. Four arms, in rotating order per page, one check at a time:
 *  - unchanged, released: a check that changes nothing, its page closed as soon as the DOM is captured
 *    (the render before evidence existed): the baseline;
 *  - unchanged, kept: the same check as it runs now, its page kept open until the check has judged its
 *    links (no screenshot: nothing moved). Target: checks per hour ≥ 95 % of the baseline;
 *  - changing, photographed: the tracked link is reset to "never seen" before the check, so every check
 *    is a first live sighting that keeps a record with its screenshot;
 *  - changing, no camera: the same, the record written without a screenshot (what the screenshot costs).
 * Printed: checks per hour (3,600 s / mean wall time), CPU seconds per check (this process, its worker
 * threads and Chromium), and the storage of a record: HTML (gzip), PNG, and the table's growth per record.
 */
import { and, eq, sql } from "drizzle-orm";
import { inspectUrl, shutdownAnalyzer } from "@/lib/analyzer";
import { evidence, linkTransition, trackedLink } from "@/lib/db/schema";
import { runCheck, type CheckDeps } from "@/lib/monitor/run-check";
import { startCorpusMonitors } from "./lib/corpus-monitors";
import { treeCpuSeconds } from "./lib/cpu";
import { loadAverage } from "./lib/machine";
import { median } from "./lib/stats";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SHARED_PAGES = Number(process.env.BENCH_SHARED_PAGES ?? 30);

const ARMS = ["unchanged, released", "unchanged, kept", "changing, photographed", "changing, no camera"] as const;
type ArmName = (typeof ARMS)[number];

interface Arm {
  wallMs: number[];
  cpuSeconds: number;
  pageErrors: number;
}

async function main(): Promise<void> {
  const corpus = await startCorpusMonitors(SHARED_PAGES);
  const { config, organizationId, pages, dirs } = corpus;
  const db = corpus.database.db;

  const deps = (keepPage: boolean): CheckDeps => ({
    db,
    settings: config,
    now: () => new Date(),
    random: () => 0,
    leaseMs: 120_000,
    inspect: (url, options) => inspectUrl(url, { ...options, checkLinks: () => false, evidence: keepPage }),
  });
  /** The tracked link as if never checked: its next check is a first live sighting. */
  const forget = async (linkId: string) => {
    await db.delete(linkTransition).where(eq(linkTransition.trackedLinkId, linkId));
    await db
      .update(trackedLink)
      .set({
        state: "pending",
        pendingState: null,
        pendingCount: 0,
        current: null,
        verdict: null,
        firstSeenAt: null,
        lastSeenAt: null,
      })
      .where(eq(trackedLink.id, linkId));
  };
  const arms = Object.fromEntries(
    ARMS.map((name) => [name, { wallMs: [], cpuSeconds: 0, pageErrors: 0 } as Arm]),
  ) as Record<ArmName, Arm>;
  const once = async (name: ArmName, page: (typeof pages)[number]) => {
    const changing = name.startsWith("changing");
    if (changing) await forget(page.linkId);
    const arm = arms[name];
    const cpu = treeCpuSeconds(process.pid);
    const started = performance.now();
    const result = await runCheck(
      deps(name !== "unchanged, released" && name !== "changing, no camera"),
      organizationId,
      page.monitorId,
      { kind: "manual" },
    );
    arm.wallMs.push(performance.now() - started);
    arm.cpuSeconds += treeCpuSeconds(process.pid) - cpu;
    if (result.status === "applied" && result.outcome === "page_error") arm.pageErrors += 1;
  };

  const loadBefore = loadAverage();
  console.log(`${pages.length} corpus pages (${dirs.join(", ")}), ${ROUNDS} round(s), load average ${loadBefore}`);
  // Warm the browser and the pool, and give every link its first check (the unchanged arms need a steady link).
  for (const page of pages) await runCheck(deps(true), organizationId, page.monitorId, { kind: "manual" });
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, page] of pages.entries()) {
      // Each page runs every arm; the order rotates so no arm always follows another.
      for (let step = 0; step < ARMS.length; step += 1)
        await once(ARMS[(index + round + step) % ARMS.length] as ArmName, page);
      // A changing arm left the link freshly live; the next unchanged check finds it so: nothing moves.
    }
    console.log(`  round ${round + 1} done, load average ${loadAverage()}`);
  }
  const loadAfter = loadAverage();

  const rows = ARMS.map((name) => {
    const arm = arms[name];
    const mean = arm.wallMs.reduce((sum, ms) => sum + ms, 0) / arm.wallMs.length;
    return {
      name,
      checks: arm.wallMs.length,
      perHour: 3_600_000 / mean,
      mean,
      median: median(arm.wallMs),
      cpu: arm.cpuSeconds / arm.wallMs.length,
      pageErrors: arm.pageErrors,
    };
  });
  console.log("");
  console.log(`arm                      checks  page errors  mean check  median check  checks/hour  CPU s/check`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(24)} ${String(row.checks).padStart(6)}  ${String(row.pageErrors).padStart(11)}  ${row.mean.toFixed(0).padStart(8)} ms  ${row.median.toFixed(0).padStart(9)} ms  ${row.perHour.toFixed(0).padStart(11)}  ${row.cpu.toFixed(3).padStart(11)}`,
    );
  }
  const [released, kept, photographed, noCamera] = rows as [
    (typeof rows)[number],
    (typeof rows)[number],
    (typeof rows)[number],
    (typeof rows)[number],
  ];
  const ratio = kept.perHour / released.perHour;
  console.log(
    `a check that changes nothing, page kept / released: checks per hour ${(ratio * 100).toFixed(1)} % (target ≥ 95 %: ${ratio >= 0.95 ? "met" : "NOT met"}), CPU ${((kept.cpu / released.cpu) * 100).toFixed(1)} %`,
  );
  console.log(
    `a screenshot adds ${(photographed.mean - noCamera.mean).toFixed(0)} ms and ${(photographed.cpu - noCamera.cpu).toFixed(3)} CPU s to a check that keeps evidence`,
  );

  const [sizes] = await db
    .select({
      records: sql<number>`count(*)::int`,
      withShot: sql<number>`count(${evidence.screenshotPng})::int`,
      html: sql<number>`coalesce(avg(octet_length(${evidence.htmlGzip})), 0)::float`,
      raw: sql<number>`coalesce(avg(${evidence.htmlBytes}), 0)::float`,
      png: sql<number>`coalesce(avg(octet_length(${evidence.screenshotPng})), 0)::float`,
      pngMax: sql<number>`coalesce(max(octet_length(${evidence.screenshotPng})), 0)::int`,
      table: sql<number>`pg_total_relation_size('evidence')::float`,
    })
    .from(evidence)
    .where(and(eq(evidence.organizationId, organizationId)));
  if (sizes) {
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    console.log(
      `storage: ${sizes.records} records (${sizes.withShot} with a screenshot); per record HTML ${kib(sizes.raw)} sent → ${kib(sizes.html)} gzip, PNG ${kib(sizes.png)} (largest ${kib(sizes.pngMax)}); table with indexes and TOAST ${kib(sizes.table / Math.max(1, sizes.records))} per record`,
    );
  }
  console.log(`load average before ${loadBefore}, after ${loadAfter} (2 cores, shared)`);
  await shutdownAnalyzer();
  await corpus.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
