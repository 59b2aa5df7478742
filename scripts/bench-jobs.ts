/**
 * The job engine at scale (`npm run bench:jobs`; part of `npm run bench`; docs/scaling.md reads it): a
 * throw-away PostgreSQL with LinkLens's schema and pg-boss 10 as the scheduler uses them, and
 *  1. enqueue: BENCH_JOBS (100,000) check jobs inserted as the dispatcher does (batches of DUE_BATCH, ids
 *     and priorities), and 2,000 more one `send` at a time;
 *  2. a dispatcher tick whose whole batch is already queued (every insert a conflict);
 *  3. fetch + complete with that backlog queued: 4 and 16 workers, each fetching one job and completing
 *     it in a loop, BENCH_JOBS_SECONDS (15) each;
 *  4. the due-index query (pickDueChecks) with 100,000 monitors of 1,000 organizations all due;
 * each with the PostgreSQL cluster's CPU seconds and the load average beside it.
 */
import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import { openDatabase } from "@/lib/db";
import { JOB_QUEUES, jobEngineOptions } from "@/lib/db/jobs";
import {
  checkJobId,
  checkJobOptions,
  checkPriority,
  DUE_BATCH,
  pickDueChecks,
  type CheckJobData,
} from "@/lib/monitor/due";
import { treeCpuSeconds } from "./lib/cpu";
import { loadAverage } from "./lib/machine";
import { startPostgres } from "./lib/postgres";
import { median, percentile } from "./lib/stats";

const JOBS = Number(process.env.BENCH_JOBS ?? 100_000);
const SECONDS = Number(process.env.BENCH_JOBS_SECONDS ?? 15);
const EXPIRE_SECONDS = 300;

interface Figure {
  step: string;
  result: string;
  "PostgreSQL CPU s": string;
  load: string;
}

function job(round: number): PgBoss.JobInsert<CheckJobData> {
  const monitorId = randomUUID();
  const dueAt = new Date();
  return {
    id: checkJobId(monitorId, dueAt),
    name: JOB_QUEUES.monitorCheck,
    data: { organizationId: randomUUID(), monitorId, dueAt: dueAt.toISOString() },
    priority: checkPriority(round, false),
    ...checkJobOptions(EXPIRE_SECONDS),
  };
}

async function main(): Promise<void> {
  const postgres = await startPostgres();
  const database = openDatabase({ databaseUrl: await postgres.createDatabase(), dataDir: "" });
  const figures: Figure[] = [];
  const measure = async (step: string, run: () => Promise<string>) => {
    const load = loadAverage();
    const cpu = treeCpuSeconds(postgres.pid);
    const result = await run();
    figures.push({
      step,
      result,
      "PostgreSQL CPU s": (treeCpuSeconds(postgres.pid) - cpu).toFixed(1),
      load: `${load} → ${loadAverage()}`,
    });
    console.log(`${step}: ${result}`);
  };
  try {
    await database.migrate();
    const boss = new PgBoss({
      ...jobEngineOptions(database.execute),
      migrate: false,
      supervise: false,
      schedule: false,
    });
    boss.on("error", (error: unknown) => console.error(error));
    await boss.start();
    console.log(`pg-boss 10 on PostgreSQL, ${JOBS.toLocaleString("en-US")} jobs; load average ${loadAverage()}`);

    let lastBatch: PgBoss.JobInsert<CheckJobData>[] = [];
    await measure(
      `enqueue ${JOBS.toLocaleString("en-US")} jobs, batches of ${DUE_BATCH} (the dispatcher's insert)`,
      async () => {
        const started = performance.now();
        for (let sent = 0; sent < JOBS; sent += DUE_BATCH) {
          lastBatch = Array.from({ length: Math.min(DUE_BATCH, JOBS - sent) }, (_, i) =>
            job(1 + ((sent + i) % DUE_BATCH)),
          );
          await boss.insert(lastBatch);
        }
        const seconds = (performance.now() - started) / 1000;
        return `${seconds.toFixed(1)} s, ${Math.round(JOBS / seconds).toLocaleString("en-US")} jobs/s`;
      },
    );
    await measure("enqueue 2,000 jobs, one send each", async () => {
      const started = performance.now();
      for (let i = 0; i < 2_000; i += 1) {
        const { name, data, ...options } = job(1);
        await boss.send(name, data as object, options);
      }
      const seconds = (performance.now() - started) / 1000;
      return `${seconds.toFixed(1)} s, ${Math.round(2_000 / seconds).toLocaleString("en-US")} jobs/s`;
    });
    await measure("a dispatcher tick whose batch is all queued already (conflicts)", async () => {
      const times: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const started = performance.now();
        await boss.insert(lastBatch);
        times.push(performance.now() - started);
      }
      return `median ${median(times).toFixed(1)} ms per batch of ${lastBatch.length}`;
    });
    /** `workers` loops of fetch one → complete it, for SECONDS or until the queue is empty. */
    const fetchAndComplete = async (workers: number): Promise<string> => {
      const fetchTimes: number[] = [];
      let done = 0;
      const started = performance.now();
      const stopAt = started + SECONDS * 1000;
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (performance.now() < stopAt) {
            const fetchStarted = performance.now();
            const [fetched] = (await boss.fetch<CheckJobData>(JOB_QUEUES.monitorCheck, { batchSize: 1 })) ?? [];
            fetchTimes.push(performance.now() - fetchStarted);
            if (!fetched) break;
            await boss.complete(JOB_QUEUES.monitorCheck, fetched.id, { status: "applied" });
            done += 1;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      return `${Math.round(done / seconds).toLocaleString("en-US")} jobs/s (${done} in ${seconds.toFixed(1)} s); fetch p50 ${median(fetchTimes).toFixed(1)} ms, p99 ${percentile(fetchTimes, 99).toFixed(1)} ms`;
    };
    for (const workers of [4, 16])
      await measure(`fetch + complete, ${workers} workers, ${JOBS.toLocaleString("en-US")} queued`, () =>
        fetchAndComplete(workers),
      );
    // What the dispatcher keeps instead: a shallow queue (pg-boss's fetch sorts every ready job by priority).
    await database.execute("DELETE FROM pgboss.job WHERE name = $1", [JOB_QUEUES.monitorCheck]);
    for (const workers of [4, 16]) {
      await boss.insert(Array.from({ length: DUE_BATCH }, (_, k) => job(1 + k)));
      await measure(
        `fetch + complete, ${workers} workers, ${DUE_BATCH.toLocaleString("en-US")} queued (one dispatcher batch: the queue it keeps)`,
        () => fetchAndComplete(workers),
      );
    }
    await boss.stop({ graceful: false, close: false, wait: true });

    await database.execute(
      "INSERT INTO organization (id, name, slug, created_at) SELECT 'org-' || g, 'Org ' || g, 'org-' || g, now() FROM generate_series(1, 1000) g",
    );
    await database.execute(
      "INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) SELECT 'm-' || g, 'org-' || (1 + g % 1000), 'https://site' || g || '.example/', 1440, now() - (g || ' seconds')::interval FROM generate_series(1, 100000) g",
    );
    await database.execute("ANALYZE monitor");
    await measure("the due-index query, 100,000 monitors of 1,000 organizations all due", async () => {
      const times: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        const started = performance.now();
        await pickDueChecks(database.db, new Date(), DUE_BATCH);
        times.push(performance.now() - started);
      }
      return `median ${median(times).toFixed(0)} ms per tick (batch of ${DUE_BATCH})`;
    });
  } finally {
    console.log("\nJob engine figures (PostgreSQL CPU: the cluster's process tree during the step):");
    console.table(figures);
    await database.close();
    await postgres.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
