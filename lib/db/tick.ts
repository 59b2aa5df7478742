import type PgBoss from "pg-boss";
import type { Config } from "../config";
import type { Db } from "./client";

/**
 * The scheduler's periodic work: every instance runs each task of the list every MONITOR_POLL_SECONDS.
 * Several instances run the same tasks against one database, so a task must be idempotent (enqueue with
 * a deterministic job id, claim rows with SKIP LOCKED, or dedupe with a unique key).
 *
 * To add work (alert digests, expiry reminders), append a TickTask to `TICK_TASKS` in tick-tasks.ts. Work
 * of a floor above lib/monitor (scheduled reports, lib/reports/task.ts) is added to the list by the
 * process that starts the scheduler (server/main.ts).
 */
export interface TickContext {
  db: Db;
  boss: PgBoss;
  config: Config;
  /** The scheduler's clock (injectable in tests). */
  now: Date;
}

export interface TickTask {
  name: string;
  run: (ctx: TickContext) => Promise<void>;
}
