/**
 * History benchmark (`npm run bench:stats`, after `npm run build`), loopback only:
 *   BENCH_LINKS=100000 npm run bench:stats
 *
 * A throw-away PostgreSQL and the production server; one organization with BENCH_LINKS tracked links on
 * BENCH_LINKS/50 monitored pages (20 tags), created over the last 500 days, each checked at creation and
 * then changing state 0–4 times since (300,000 changes for 100,000 links; each also a change of verdict,
 * the first one its first verdict: 300,000 verdict changes), plus two other organizations
 * with a fifth as many each (their rows are in the same tables and indexes). Then, each over HTTP with a
 * real session (the guard included) and as the query alone:
 *  - GET /api/account/stats/daily?days=30|90|365
 *  - GET /api/account/links/{id}/uptime?days=90
 *  - GET /r/{token} (a tag of BENCH_LINKS/20 links, its first page of 100 strips) and its export.csv
 * and prints the median and p95 of BENCH_RUNS requests each, and the query plan of the daily stats.
 */
import { randomUUID } from "node:crypto";
import { Client } from "pg";
import { openDatabase } from "../lib/db";
import { PgDialect } from "drizzle-orm/pg-core";
import { dailyStats, dailyStatsQuery } from "../lib/stats/daily-query";
import { uptimeOfLinks } from "../lib/stats/uptime-query";
import { generateHistory } from "./lib/history-data";
import { startPostgres } from "./lib/postgres";
import { startServer, type RunningServer } from "./lib/server-process";
import { median, percentile } from "./lib/stats";

const LINKS = Number(process.env.BENCH_LINKS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SECRET = "bench-secret-bench-secret-bench-secret-00";

async function signUp(server: RunningServer): Promise<{ cookie: string; organizationId: string }> {
  const response = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({
      email: `bench-${randomUUID()}@example.com`,
      password: "correct horse battery",
      name: "Bench",
    }),
  });
  if (response.status !== 200) throw new Error(`sign-up: ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const me = (await (await fetch(`${server.baseUrl}/api/account/me`, { headers: { cookie } })).json()) as {
    organization: { id: string };
  };
  return { cookie, organizationId: me.organization.id };
}

async function timeRequests(label: string, run: () => Promise<void>): Promise<string> {
  await run();
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return `${label.padEnd(52)} median ${median(times).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms`;
}

async function main(): Promise<void> {
  const postgres = await startPostgres();
  const url = await postgres.createDatabase();
  const db = new Client({ connectionString: url });
  let server: RunningServer | null = null;
  const database = openDatabase({ databaseUrl: url, dataDir: "" });
  try {
    server = await startServer({
      DATABASE_URL: url,
      BETTER_AUTH_SECRET: SECRET,
      MONITOR_SCHEDULER: "off",
      LOG_LEVEL: "error",
    });
    await db.connect();
    const { cookie, organizationId } = await signUp(server);
    const started = performance.now();
    await generateHistory(db, organizationId, "a", LINKS);
    for (const prefix of ["b", "c"]) {
      const other = `bench-other-${prefix}`;
      await db.query("INSERT INTO organization (id, name, slug, created_at) VALUES ($1, $1, $1, now())", [other]);
      await generateHistory(db, other, prefix, Math.round(LINKS / 5));
    }
    await db.query("ANALYZE");
    const counts = await db.query<{ links: string; changes: string; verdicts: string }>(
      `SELECT (SELECT count(*) FROM tracked_link WHERE organization_id = $1) AS links, (SELECT count(*) FROM link_transition WHERE organization_id = $1) AS changes,
              (SELECT count(*) FROM verdict_transition WHERE organization_id = $1) AS verdicts`,
      [organizationId],
    );
    const generated = counts.rows[0];
    console.log(
      `generated ${generated?.links} tracked links, ${generated?.changes} state changes and ${generated?.verdicts} verdict changes (plus two other organizations) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const base = server.baseUrl;
    const get = (path: string) => async () => {
      const response = await fetch(`${base}${path}`, { headers: { cookie } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    };
    const share = await fetch(`${base}/api/account/shares`, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "application/json" },
      body: JSON.stringify({ title: "Bench", scope: "tag", tag: "tag-7" }),
    });
    const shareUrl = ((await share.json()) as { url: string }).url;
    const sharePath = new URL(shareUrl).pathname;

    const lines: string[] = [];
    for (const days of [30, 90, 365])
      lines.push(
        await timeRequests(`GET /api/account/stats/daily?days=${days}`, get(`/api/account/stats/daily?days=${days}`)),
      );
    lines.push(
      await timeRequests(
        "GET /api/account/links/{id}/uptime?days=90",
        get(`/api/account/links/a-l${Math.floor(LINKS / 2)}/uptime?days=90`),
      ),
    );
    lines.push(await timeRequests(`GET /r/{token} (tag of ${LINKS / 20} links, 100 strips)`, get(sharePath)));
    lines.push(await timeRequests(`GET /r/{token}/export.csv (${LINKS / 20} rows)`, get(`${sharePath}/export.csv`)));
    const scope = { db: database.db, organization: { id: organizationId }, now: () => new Date() };
    for (const days of [30, 90, 365])
      lines.push(
        await timeRequests(`  the daily query alone, ${days} days`, async () => void (await dailyStats(scope, days))),
      );
    const page = Array.from({ length: 100 }, (_, i) => `a-l${i * 20 + 7}`);
    lines.push(
      await timeRequests(
        "  the uptime query alone, 100 links × 90 days",
        async () => void (await uptimeOfLinks(database.db, organizationId, page, 90, new Date())),
      ),
    );
    console.log("");
    console.log(`${LINKS} tracked links, ${RUNS} requests each (after 2 warm-up requests), one at a time:`);
    for (const line of lines) console.log(line);

    const since = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    const query = new PgDialect().sqlToQuery(dailyStatsQuery(organizationId, `${since}T00:00:00.000Z`));
    const plan = await db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${query.sql}`,
      query.params,
    );
    console.log("");
    console.log("plan of the daily query (365 days):");
    for (const row of plan.rows) console.log(`  ${row["QUERY PLAN"]}`);
  } finally {
    await db.end().catch(() => undefined);
    await database.close().catch(() => undefined);
    await server?.stop();
    await postgres.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
