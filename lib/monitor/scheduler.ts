import PgBoss from "pg-boss";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { JOB_QUEUES, jobEngineOptions } from "../db/jobs";
import { log } from "../log";
import { checkDeps, MonitorBusyError, runCheck, type CheckDeps } from "./run-check";
import type { CheckJobData } from "./due";
import type { TickTask } from "../db/tick";
import { monitorConcurrency } from "./schedule";
import { TICK_TASKS } from "./tick-tasks";

/**
 * The job engine of one instance (pg-boss 10 over the process's own database, PostgreSQL or PGlite):
 *
 * - a tick every MONITOR_POLL_SECONDS runs TICK_TASKS (tick-tasks.ts); the first enqueues due monitors
 *   with deterministic job ids (due.ts), so N instances enqueue each due check once;
 * - monitorConcurrency(config) workers run the checks (clientKey `monitor:<org>`, so the analyzer's fair
 *   queue serves public requests between them; their renders are `background`, so a public analysis or a
 *   "Check now" waiting for a render slot goes first). Workers fetch by pg-boss priority: the dispatcher's
 *   rounds, fair across organizations (due.ts). A worker fences on the monitor's nextCheckAt still being the
 *   job's due time, and monitor_check's unique (monitor_id, due_at) stores a due time once, so a retried
 *   job never applies twice;
 * - a worker killed mid-check leaves its job active: pg-boss's maintenance (any instance) fails it once
 *   MONITOR_JOB_EXPIRE_SECONDS have passed and it is retried, by whichever worker fetches it first, once
 *   the dead check's hold on the monitor (the same length) has run out.
 *
 * pg-boss's schema and queues are created by the migration step (lib/db/jobs.ts), never here.
 */

export interface SchedulerOptions {
  database: Database;
  config: Config;
  /** Tests replace the clock, the jitter and the task list; production uses the defaults. */
  now?: () => Date;
  random?: () => number;
  tasks?: TickTask[];
  /**
   * True while this instance serves public analyses (the server counts them): a scheduled check waits
   * to start until they are done (at most a third of the job's expiry), so monitors do not double the
   * public analyzer's latency on a small machine. A check already running is not interrupted.
   */
  yieldTo?: () => boolean;
}

export interface Scheduler {
  /** Runs one tick now (after a running one). */
  tick: () => Promise<void>;
  /** Stops ticking and fetching, cancels checks in flight (their jobs are retried) and waits for them. */
  stop: () => Promise<void>;
}

export async function startScheduler(options: SchedulerOptions): Promise<Scheduler> {
  const { database, config } = options;
  const now = options.now ?? (() => new Date());
  const tasks = options.tasks ?? TICK_TASKS;
  const expireSeconds = config.MONITOR_JOB_EXPIRE_SECONDS;
  const boss = new PgBoss({
    ...jobEngineOptions(database.execute),
    migrate: false,
    schedule: false,
    supervise: true,
    // Expiry is noticed by maintenance: run it often enough that a dead worker's job comes back soon.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(expireSeconds / 2))),
  });
  boss.on("error", (error: unknown) => log.warn({ err: error }, "job engine error"));
  await boss.start();

  const cancel = new AbortController();
  const deps: CheckDeps = {
    ...checkDeps({ db: database.db, settings: config, now }),
    random: options.random ?? Math.random,
  };
  const workOptions = { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, Math.min(2, config.MONITOR_POLL_SECONDS)) };
  for (let i = 0; i < monitorConcurrency(config); i += 1) {
    let workerId: string | null = null;
    workerId = await boss.work<CheckJobData>(JOB_QUEUES.monitorCheck, workOptions, async ([job]) => {
      if (!job) return;
      const { organizationId, monitorId, dueAt } = job.data;
      const yieldUntil = Date.now() + (expireSeconds * 1000) / 3;
      while (options.yieldTo?.() && Date.now() < yieldUntil && !cancel.signal.aborted)
        await new Promise((resolve) => setTimeout(resolve, 100));
      try {
        const result = await runCheck(
          deps,
          organizationId,
          monitorId,
          { kind: "schedule", dueAt: new Date(dueAt) },
          cancel.signal,
        );
        return result.status;
      } catch (error) {
        // Thrown on purpose: pg-boss fails the job and retries it later (busy, our capacity, a crash).
        if (!(error instanceof MonitorBusyError) && !cancel.signal.aborted)
          log.warn({ err: error, monitorId }, "monitor check failed; it will be retried");
        throw error;
      } finally {
        // pg-boss waits out the rest of its polling interval after a job; with checks queued, fetch the next at once.
        if (workerId && !cancel.signal.aborted) boss.notifyWorker(workerId);
      }
    });
  }

  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = running.then(async () => {
      if (stopped) return;
      for (const task of tasks) {
        try {
          await task.run({ db: database.db, boss, config, now: now() });
        } catch (error) {
          log.warn({ err: error, task: task.name }, "scheduler task failed");
        }
      }
    });
    return running;
  };
  const timer = setInterval(() => void tick(), config.MONITOR_POLL_SECONDS * 1000);
  timer.unref();
  void tick();

  return {
    tick,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      cancel.abort(new Error("the scheduler is stopping"));
      await running.catch(() => undefined);
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 15_000 });
    },
  };
}
