import { getConfig, type Config } from "../config";
import type { Db } from "./client";
import { database } from "./index";

/**
 * What every service reads besides its input: the database, the settings and the clock. The account
 * guard builds it once per request (lib/auth/guard.ts adds who asks); the scheduler and the senders
 * build it once per process. Services never open the database or read the configuration themselves.
 */
export interface Runtime {
  db: Db;
  settings: Config;
  /** Injectable clock: tests move time instead of waiting through an interval. */
  now: () => Date;
}

/** The process's runtime: its database (DATABASE_URL or the embedded one), its configuration, the wall clock. */
export function processRuntime(): Runtime {
  return { db: database().db, settings: getConfig(), now: () => new Date() };
}
