import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { POST as createMonitor } from "@/app/api/account/monitors/route";
import { PATCH as patchMonitor } from "@/app/api/account/monitors/[id]/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { monitor, monitorCheck } from "@/lib/db/schema";
import { checkJobId } from "@/lib/monitor/due";
import { startScheduler, type Scheduler } from "@/lib/monitor/scheduler";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/scripts/lib/server-process";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { htmlPage, type MonitorJson } from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * The scheduler with pg-boss 10 on both backends (PGlite through the same embedded database, PostgreSQL
 * through the same pool): due monitors are enqueued with deterministic job ids and checked once per due
 * time, however many ticks run; a paused monitor is skipped and checked at once when resumed; a due time
 * whose job finished without a check is healed. Two production instances on one PostgreSQL, and a killed
 * one, are tests/integration/monitor-instances.test.ts.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
const config = parseConfig({
  ...process.env,
  MONITOR_POLL_SECONDS: "1",
  MONITOR_JOB_EXPIRE_SECONDS: "10",
  MONITOR_CONCURRENCY: "1",
});

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.each(BACKENDS)("scheduler (%s)", (backend) => {
  let database: Database;
  let team: Team;
  const schedulers: Scheduler[] = [];

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `s-${backend}`);
  });
  afterAll(async () => {
    for (const scheduler of schedulers.splice(0)) await scheduler.stop();
  });

  async function watch(path: string): Promise<MonitorJson> {
    site.setPage(path, { body: htmlPage(`<a href="${site.url("/p/ok")}">ok</a>`) });
    const result = await call(createMonitor, "POST", "/api/account/monitors", {
      cookie: team.member.cookie,
      body: { url: site.url(path), links: [{ target: site.url("/p/ok") }] },
    });
    expect(result.status, result.text).toBe(201);
    return result.json as unknown as MonitorJson;
  }

  const checksOf = async (id: string) => database.db.select().from(monitorCheck).where(eq(monitorCheck.monitorId, id));
  const jobCount = async () => {
    const result = await database.execute(
      "SELECT (SELECT count(*) FROM pgboss.job WHERE name = 'monitor-check') + (SELECT count(*) FROM pgboss.archive WHERE name = 'monitor-check') AS n",
    );
    return Number(result.rows[0]?.n);
  };

  it("pg-boss's schema and queue were created by the migration, before any scheduler started", async () => {
    const queue = await database.execute("SELECT name, policy FROM pgboss.queue WHERE name = 'monitor-check'");
    expect(queue.rows).toEqual([{ name: "monitor-check", policy: "standard" }]);
  });

  it("due monitors are checked once per due time, however many ticks run", async () => {
    const paths = [1, 2, 3].map((n) => `/sched-${backend}/${n}`);
    const monitors: MonitorJson[] = [];
    for (const path of paths) monitors.push(await watch(path));
    schedulers.push(await startScheduler({ database, config }));
    await until(
      async () => (await Promise.all(monitors.map((m) => checksOf(m.id)))).every((rows) => rows.length === 1),
      60_000,
      "every monitor checked",
    );
    for (let i = 0; i < 3; i += 1) await schedulers[0]?.tick();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const [index, m] of monitors.entries()) {
      const rows = await checksOf(m.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ trigger: "schedule", outcome: "ok", dueAt: new Date(m.nextCheckAt) });
      // One check: the visitor's render and Googlebot's (a monitor's first check renders Google's view).
      expect(site.hits(paths[index] ?? "")).toBe(2);
      const [row] = await database.db.select().from(monitor).where(eq(monitor.id, m.id));
      expect((row?.nextCheckAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(1439 * 60_000);
    }
    expect(await jobCount()).toBe(3);
    const ids = await database.execute(
      "SELECT id FROM pgboss.job WHERE name = 'monitor-check' UNION SELECT id FROM pgboss.archive WHERE name = 'monitor-check'",
    );
    expect(ids.rows.map((r) => String(r.id)).sort()).toEqual(
      monitors.map((m) => checkJobId(m.id, new Date(m.nextCheckAt))).sort(),
    );
  });

  it("a paused monitor is not checked; resuming makes it due and it is checked at once", async () => {
    const created = await watch(`/sched-${backend}/paused`);
    await call(patchMonitor, "PATCH", "/x", {
      cookie: team.member.cookie,
      params: { id: created.id },
      body: { paused: true },
    });
    await schedulers[0]?.tick();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await checksOf(created.id)).toHaveLength(0);
    await call(patchMonitor, "PATCH", "/x", {
      cookie: team.member.cookie,
      params: { id: created.id },
      body: { paused: false },
    });
    await until(async () => (await checksOf(created.id)).length === 1, 30_000, "the resumed monitor's check");
  });

  it("a finished job whose due time never moved (it found the monitor held) is healed: the due time moves to now", async () => {
    const created = await watch(`/sched-${backend}/stuck`);
    // As if an earlier job had found the monitor busy and given up for good: a finished job for this due time.
    await database.db.update(monitor).set({ paused: true }).where(eq(monitor.id, created.id));
    const overdue = new Date(Date.now() - 60_000);
    await database.db.update(monitor).set({ nextCheckAt: overdue }).where(eq(monitor.id, created.id));
    await database.execute(
      `INSERT INTO pgboss.job (id, name, data, state, completed_on) VALUES ($1, 'monitor-check', $2::jsonb, 'completed', now())`,
      [
        checkJobId(created.id, overdue),
        JSON.stringify({ organizationId: team.organizationId, monitorId: created.id, dueAt: overdue.toISOString() }),
      ],
    );
    await database.db.update(monitor).set({ paused: false }).where(eq(monitor.id, created.id));
    await until(async () => (await checksOf(created.id)).length === 1, 30_000, "the healed monitor's check");
    const [row] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(monitorCheck)
      .where(eq(monitorCheck.monitorId, created.id));
    expect(row?.n).toBe(1);
  });
});
