import { getConfig, type Config } from "../config";
import { database, type Db } from "../db";

/** What the monitoring services read besides their input: the database, the settings and the clock. */
export interface MonitorDeps {
  db: Db;
  config: Pick<Config, "ALLOW_PRIVATE_HOSTS" | "MONITOR_MIN_INTERVAL_MINUTES">;
  /** Injectable clock: tests move time instead of waiting through an interval. */
  now: () => Date;
}

/** The process's dependencies, as the route handlers use them. */
export function monitorDeps(): MonitorDeps {
  return { db: database().db, config: getConfig(), now: () => new Date() };
}

/** A unique-key violation (PostgreSQL and PGlite say 23505; Drizzle may wrap the driver's error). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth += 1) {
    if (e.code === "23505") return true;
  }
  return false;
}
