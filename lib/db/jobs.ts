import PgBoss from "pg-boss";

/**
 * The job engine's tables (pg-boss 10, schema `pgboss`) and queues. They are created here, once, by the
 * migration step that already runs under the migration lock (lib/db/client.ts): measured on a fresh
 * database, several instances each letting pg-boss install itself at start deadlocked, and PGlite has no
 * second connection to wait on.
 *
 * pg-boss reaches the database through `SqlExecutor`, the same connection pool (PostgreSQL) or the same
 * embedded database (PGlite) as Drizzle: one database, one set of credentials, one code path.
 */

/** The pg-boss `db` adapter: one SQL text (several statements when `values` is empty) and its parameters. */
export type SqlExecutor = (
  text: string,
  values?: unknown[],
) => Promise<{ rows: Record<string, unknown>[]; rowCount?: number | null }>;

export const JOB_SCHEMA = "pgboss";

/** Every queue of LinkLens. Add a queue here and it exists after the next start's migration. */
export const JOB_QUEUES = {
  /** One scheduled check of one monitor at one due time (lib/monitor/scheduler.ts). */
  monitorCheck: "monitor-check",
} as const;

/** pg-boss options shared by the installer and the scheduler (never its own connection). */
export function jobEngineOptions(execute: SqlExecutor): PgBoss.ConstructorOptions {
  return { db: { executeSql: execute } as PgBoss.Db, schema: JOB_SCHEMA };
}

/** Creates or migrates pg-boss's schema and creates missing queues. Run under the migration lock. */
export async function installJobEngine(execute: SqlExecutor): Promise<void> {
  const boss = new PgBoss({ ...jobEngineOptions(execute), migrate: true, supervise: false, schedule: false });
  boss.on("error", () => {});
  await boss.start();
  try {
    for (const name of Object.values(JOB_QUEUES)) {
      if (!(await boss.getQueue(name))) await boss.createQueue(name, { name, policy: "standard" });
    }
  } finally {
    await boss.stop({ graceful: false, close: false, wait: true });
  }
}
