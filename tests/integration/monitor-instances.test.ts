import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "pg";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { descendants } from "@/scripts/lib/processes";
import { startServer, type RunningServer } from "../helpers/server";
import { startPostgres, type PostgresServer } from "../helpers/postgres";

/**
 * Scheduled checks across instances (production build, `npm run build` first): two servers on one
 * PostgreSQL start together (pg-boss's schema is created once, under the migration lock), FLEET monitors
 * due at the same instant (enough for both instances to compete for every job; throughput is
 * `npm run bench:monitor`'s) are each checked exactly once (the fixture site counts every page's requests),
 * thousands of one organization's checks due do not delay another organization's due check by a minute
 * (round-robin dispatch, lib/monitor/due.ts), and when one instance is SIGKILLed mid-check its in-flight
 * checks are retried by the other, once.
 */

const FLEET = 20;
/** Due checks of one organization in the fairness test (lib/monitor/due.ts: "at any backlog"). */
const BACKLOG = 3_000;
const SECRET = "shared-secret-shared-secret-shared-secret";
let postgres: PostgresServer;
let site: FixtureSite;
let databaseUrl: string;
let a: RunningServer | undefined;
let b: RunningServer | undefined;
let db: Client;
const orphans: number[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  site = await startFixtureSite();
  const env = {
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: SECRET,
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    MONITOR_POLL_SECONDS: "1",
    // Long enough that no check outlives its job on a loaded 2-core machine; short enough for the kill test.
    MONITOR_JOB_EXPIRE_SECONDS: "30",
    MONITOR_CONCURRENCY: "1",
    LINK_CHECK_TIMEOUT_MS: "2000",
    // All the monitors belong to one organization, one analyzer client: on a loaded 2-core machine their
    // renders use up its per-minute worker budget, and a check refused after its render (429) is retried
    // and renders the page again. Counting page requests needs the budget out of the way.
    ANALYSIS_CLIENT_BUDGET_MS: "3600000",
  };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
  db = new Client({ connectionString: databaseUrl });
  await db.connect();
}, 180_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await Promise.all([a?.stop(), b?.stop()]);
  for (const pid of orphans) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await site?.close();
  await postgres?.stop();
});

async function organizationOf(server: RunningServer): Promise<string> {
  const signUp = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({
      email: `owner-${randomUUID()}@example.com`,
      password: "correct horse battery",
      name: "Owner",
    }),
  });
  expect(signUp.status).toBe(200);
  const cookie = signUp.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const me = (await (await fetch(`${server.baseUrl}/api/account/me`, { headers: { cookie } })).json()) as {
    organization: { id: string };
  };
  return me.organization.id;
}

/** `count` monitors of one organization, all due at the same instant, each with one tracked link. */
async function dueMonitors(
  organizationId: string,
  prefix: string,
  count: number,
  delayMs = 0,
): Promise<{ ids: string[]; paths: string[]; dueAt: Date }> {
  const dueAt = new Date(Date.now() - 1000);
  const ids: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const path = `/${prefix}/${i}`;
    site.setPage(path, { body: `<!doctype html><title>${i}</title><a href="${site.url("/p/ok")}">ok</a>`, delayMs });
    const id = randomUUID();
    ids.push(id);
    paths.push(path);
    await db.query(
      "INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ($1, $2, $3, 1440, $4)",
      [id, organizationId, site.url(path), dueAt],
    );
    await db.query(
      "INSERT INTO tracked_link (id, organization_id, monitor_id, target, match, source) VALUES ($1, $2, $3, $4, 'exact', 'manual')",
      [randomUUID(), organizationId, id, site.url("/p/ok")],
    );
  }
  return { ids, paths, dueAt };
}

async function checksFor(ids: string[], dueAt: Date): Promise<Map<string, number>> {
  const result = await db.query<{ monitor_id: string; n: string }>(
    "SELECT monitor_id, count(*) AS n FROM monitor_check WHERE monitor_id = ANY($1) AND due_at = $2 GROUP BY monitor_id",
    [ids, dueAt],
  );
  return new Map(result.rows.map((row) => [row.monitor_id, Number(row.n)]));
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe("scheduled checks on two instances sharing PostgreSQL", () => {
  it(`${FLEET} monitors due at once: every one checked exactly once for its due time`, async () => {
    const organizationId = await organizationOf(a as RunningServer);
    const started = Date.now();
    const { ids, paths, dueAt } = await dueMonitors(organizationId, "fleet", FLEET);
    await until(async () => (await checksFor(ids, dueAt)).size === FLEET, 150_000, `${FLEET} checks`);
    const seconds = (Date.now() - started) / 1000;
    // Ticks keep running on both instances: give them time to (wrongly) check again.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const checks = await checksFor(ids, dueAt);
    expect([...checks.values()].every((n) => n === 1)).toBe(true);
    // One check per page: the visitor's render and Googlebot's (a monitor's first check renders Google's view).
    const RENDERS_PER_CHECK = 2;
    const twice = paths.flatMap((path, index) =>
      site.hits(path) === RENDERS_PER_CHECK ? [] : [{ path, hits: site.hits(path), id: ids[index] }],
    );
    if (twice.length > 0) {
      const jobs = await db.query("SELECT * FROM pgboss.job WHERE data->>'monitorId' = ANY($1::text[])", [
        twice.map((t) => t.id),
      ]);
      console.log(
        "pages requested more than once:",
        JSON.stringify(twice),
        JSON.stringify(jobs.rows),
        (a as RunningServer).output().slice(-3000),
        (b as RunningServer).output().slice(-3000),
      );
    }
    expect(paths.map((path) => site.hits(path))).toEqual(paths.map(() => RENDERS_PER_CHECK));
    const all = await db.query<{ n: string }>("SELECT count(*) AS n FROM monitor_check WHERE monitor_id = ANY($1)", [
      ids,
    ]);
    expect(Number(all.rows[0]?.n)).toBe(FLEET);
    const jobs = await db.query<{ n: string }>(
      "SELECT (SELECT count(*) FROM pgboss.job WHERE name = 'monitor-check') + (SELECT count(*) FROM pgboss.archive WHERE name = 'monitor-check') AS n",
    );
    expect(Number(jobs.rows[0]?.n)).toBe(FLEET);
    console.log(`${FLEET} due monitors checked once each by 2 instances in ${seconds.toFixed(1)} s`);
  }, 200_000);

  it(`fair across organizations: with ${BACKLOG} checks of one organization due, another organization's due check starts within a minute`, async () => {
    const busy = await organizationOf(a as RunningServer);
    const other = await organizationOf(b as RunningServer);
    // The backlog: every monitor due a minute ago (a CSV import of thousands of pages), pages that answer at once.
    const backlogDue = new Date(Date.now() - 60_000);
    const backlogIds: string[] = [];
    for (let start = 0; start < BACKLOG; start += 500) {
      const values: unknown[] = [];
      const rows: string[] = [];
      for (let i = start; i < Math.min(BACKLOG, start + 500); i += 1) {
        const id = randomUUID();
        backlogIds.push(id);
        values.push(id, busy, site.url(`/p/fair-backlog-${i}`), backlogDue);
        rows.push(`($${values.length - 3}, $${values.length - 2}, $${values.length - 1}, 1440, $${values.length})`);
      }
      await db.query(
        `INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ${rows.join(", ")}`,
        values,
      );
    }
    // Let the instances get busy with the backlog before the other organization's check falls due.
    await until(
      async () =>
        Number(
          (await db.query("SELECT count(*) AS n FROM monitor_check WHERE organization_id = $1", [busy])).rows[0]?.n,
        ) >= 4,
      60_000,
      "the backlog's first checks",
    );
    const {
      ids: [otherId],
      dueAt,
    } = await dueMonitors(other, "fair-other", 1);
    await until(
      async () => (await checksFor([otherId ?? ""], dueAt)).size === 1,
      120_000,
      "the other organization's check",
    );
    const started = await db.query<{ started_at: Date }>("SELECT started_at FROM monitor_check WHERE monitor_id = $1", [
      otherId,
    ]);
    const lateSeconds = ((started.rows[0]?.started_at.getTime() ?? 0) - dueAt.getTime()) / 1000;
    const backlogChecked = Number(
      (await db.query("SELECT count(*) AS n FROM monitor_check WHERE organization_id = $1", [busy])).rows[0]?.n,
    );
    console.log(
      `fairness: the other organization's check started ${lateSeconds.toFixed(1)} s after its due time, with ${BACKLOG - backlogChecked} of ${BACKLOG} backlog checks still due`,
    );
    expect(lateSeconds).toBeLessThan(60);
    // Most of the backlog still waits: the check did not start merely because the backlog was done.
    expect(backlogChecked).toBeLessThan(BACKLOG / 2);
    // Clear the backlog (its queued jobs find no monitor and end) before the next test.
    await db.query("DELETE FROM monitor WHERE organization_id = $1", [busy]);
    await until(
      async () =>
        Number(
          (
            await db.query(
              "SELECT count(*) AS n FROM pgboss.job WHERE name = 'monitor-check' AND state IN ('created', 'retry', 'active')",
            )
          ).rows[0]?.n,
        ) === 0,
      120_000,
      "the backlog's jobs to end",
    );
  }, 360_000);

  it("a SIGKILLed instance's in-flight checks are retried by the other, and applied once", async () => {
    const organizationId = await organizationOf(b as RunningServer);
    // Slow pages, so an instance is mid-check (page requested, nothing stored) when it is killed.
    const { ids, paths, dueAt } = await dueMonitors(organizationId, "kill", 12, 1500);
    // Both instances in the middle of a check (each holds a monitor) once the first two are stored.
    await until(async () => (await checksFor(ids, dueAt)).size >= 2, 60_000, "the first checks");
    await until(
      async () =>
        (await db.query("SELECT id FROM monitor WHERE id = ANY($1) AND checking_until IS NOT NULL", [ids])).rows
          .length >= 2,
      30_000,
      "two checks in flight",
    );
    const victim = a as RunningServer;
    const children = descendants(victim.process.pid ?? 0).map(({ pid }) => pid);
    victim.process.kill("SIGKILL");
    orphans.push(...children);
    await until(
      async () => victim.process.exitCode !== null || victim.process.signalCode !== null,
      10_000,
      "the killed instance to exit",
    );
    // The killed worker's job expires (MONITOR_JOB_EXPIRE_SECONDS), its hold on the monitor ends, the other instance retries it.
    await until(
      async () => (await checksFor(ids, dueAt)).size === ids.length,
      150_000,
      "every check, the killed one's included",
    );
    const checks = await checksFor(ids, dueAt);
    expect([...checks.values()].every((n) => n === 1)).toBe(true);
    const hits = paths.map((path) => site.hits(path));
    expect(hits.every((n) => n >= 1)).toBe(true);
    // The killed instance's job was failed by pg-boss's expiry and run again (retry_count ≥ 1), by the survivor.
    const retried = await db.query<{ data: { monitorId: string }; retry_count: number; state: string }>(
      "SELECT data, retry_count, state FROM pgboss.job WHERE name = 'monitor-check' AND retry_count > 0 UNION ALL SELECT data, retry_count, state FROM pgboss.archive WHERE name = 'monitor-check' AND retry_count > 0",
    );
    const retriedIds = retried.rows.map((row) => row.data.monitorId).filter((id) => ids.includes(id));
    console.log(`killed mid-check: retried ${retriedIds.length} job(s); page requests ${JSON.stringify(hits)}`);
    expect(retriedIds.length).toBeGreaterThanOrEqual(1);
    expect(
      retried.rows.filter((row) => retriedIds.includes(row.data.monitorId)).every((row) => row.state === "completed"),
    ).toBe(true);
    const held = await db.query("SELECT id FROM monitor WHERE id = ANY($1) AND checking_until IS NOT NULL", [ids]);
    expect(held.rows).toEqual([]);
    for (const pid of orphans.splice(0)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // ended with its parent
      }
    }
  }, 240_000);
});
