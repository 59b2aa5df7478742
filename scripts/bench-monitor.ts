/**
 * Monitor throughput benchmark (`npm run bench:monitor`, after `npm run build`), loopback only:
 *   BENCH_MONITORS=200 npm run bench:monitor
 *
 * A throw-away PostgreSQL, the fixture site serving BENCH_MONITORS pages (each with a tracked link to a
 * page that answers 200), and the production server:
 *  1. idle: the public analyzer's latency (URL mode, sequential requests) with no monitor due;
 *  2. one instance: BENCH_MONITORS monitors due at once; checks per hour until all are checked, and the
 *     public analyzer's latency measured while they run;
 *  3. two instances: as many new monitors due at once; checks per hour with a second instance started.
 * Prints the figures and whether the busy p50 stays within 1.5× of the idle p50.
 */
import { randomUUID } from "node:crypto";
import { Client } from "pg";
import { startFixtureSite, type FixtureSite } from "./lib/fixture-site";
import { startPostgres } from "./lib/postgres";
import { startServer, type RunningServer } from "./lib/server-process";
import { median, percentile, sleep } from "./lib/stats";

const COUNT = Number(process.env.BENCH_MONITORS ?? 200);
const PUBLIC_SAMPLES = Number(process.env.BENCH_PUBLIC_SAMPLES ?? 12);
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SECRET = "bench-secret-bench-secret-bench-secret-00";

async function organization(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.com`, password: "correct horse battery", name: "Bench" }),
  });
  if (response.status !== 200) throw new Error(`sign-up: ${response.status}`);
  const cookie = response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const me = (await (await fetch(`${server.baseUrl}/api/account/me`, { headers: { cookie } })).json()) as { organization: { id: string } };
  return me.organization.id;
}

/** `count` monitors due now, in one INSERT each table (the scheduler sees them all due at once). */
async function dueMonitors(db: Client, site: FixtureSite, organizationId: string, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  const due = new Date();
  for (let i = 0; i < COUNT; i += 1) {
    site.setPage(`/${prefix}/${i}`, { body: `<!doctype html><title>Placement ${i}</title><p>Text <a href="${site.url("/p/ok")}">partner</a> and <a href="/p/other-${i}">more</a>.</p>` });
    ids.push(randomUUID());
  }
  const values = (row: (id: string, i: number) => unknown[]) => ids.map(row).flat();
  const place = (width: number) => ids.map((_, i) => `(${Array.from({ length: width }, (__, j) => `$${i * width + j + 1}`).join(", ")})`).join(", ");
  await db.query(`INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ${place(5)}`, values((id, i) => [id, organizationId, site.url(`/${prefix}/${i}`), 1440, due]));
  await db.query(`INSERT INTO tracked_link (id, organization_id, monitor_id, target, match, source) VALUES ${place(6)}`, values((id) => [randomUUID(), organizationId, id, site.url("/p/ok"), "exact", "import"]));
  return ids;
}

async function checked(db: Client, ids: string[]): Promise<number> {
  const result = await db.query<{ n: string }>("SELECT count(DISTINCT monitor_id) AS n FROM monitor_check WHERE monitor_id = ANY($1)", [ids]);
  return Number(result.rows[0]?.n ?? 0);
}

/** Seconds until every monitor has a check (progress every 10 s). */
async function drain(db: Client, ids: string[], label: string): Promise<number> {
  const started = performance.now();
  let lastPrint = started;
  for (;;) {
    const done = await checked(db, ids);
    if (done >= ids.length) return (performance.now() - started) / 1000;
    if (performance.now() - lastPrint > 10_000) {
      console.log(`  ${label}: ${done}/${ids.length} checked after ${((performance.now() - started) / 1000).toFixed(0)} s`);
      lastPrint = performance.now();
    }
    if (performance.now() - started > 3_600_000) throw new Error(`${label}: not done within an hour`);
    await sleep(1000);
  }
}

/** Sequential public URL-mode analyses of a fixture page; their latencies in ms. */
async function publicLatencies(server: RunningServer, site: FixtureSite, samples: number, until?: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < samples && (until ? !until() : true); i += 1) {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/api/demo/analyze`, { method: "POST", headers: { "content-type": "application/json", "user-agent": UA }, body: JSON.stringify({ url: site.url(`/p/public-${i}`) }) });
    await response.text();
    if (response.status !== 200) throw new Error(`public analyze: ${response.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

async function main(): Promise<void> {
  const postgres = await startPostgres();
  const site = await startFixtureSite();
  const url = await postgres.createDatabase();
  const env = {
    DATABASE_URL: url,
    BETTER_AUTH_SECRET: SECRET,
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    MONITOR_POLL_SECONDS: "2",
    RATE_LIMIT_PER_MINUTE: "100000",
    DEMO_URL_MONTHLY_BUDGET: "1000000",
    LOG_LEVEL: "error",
  };
  const db = new Client({ connectionString: url });
  const servers: RunningServer[] = [];
  try {
    const first = await startServer(env);
    servers.push(first);
    await db.connect();
    const org = await organization(first);

    await publicLatencies(first, site, 2); // warm the browser and the pool
    const idle = await publicLatencies(first, site, PUBLIC_SAMPLES);

    console.log(`one instance: ${COUNT} monitors due at once`);
    const oneIds = await dueMonitors(db, site, org, "one");
    let oneDone = false;
    const busyPromise = (async () => {
      await sleep(3000);
      return publicLatencies(first, site, PUBLIC_SAMPLES, () => oneDone);
    })();
    const oneSeconds = await drain(db, oneIds, "one instance");
    oneDone = true;
    const busy = await busyPromise;

    const second = await startServer(env);
    servers.push(second);
    console.log(`two instances: ${COUNT} more monitors due at once`);
    const twoIds = await dueMonitors(db, site, org, "two");
    const twoSeconds = await drain(db, twoIds, "two instances");

    const perHour = (seconds: number) => Math.round((COUNT / seconds) * 3600);
    const p50Idle = median(idle);
    const p50Busy = median(busy);
    console.log("");
    console.log(`monitors per run            ${COUNT}`);
    console.log(`1 instance                  ${oneSeconds.toFixed(1)} s → ${perHour(oneSeconds)} checks/hour`);
    console.log(`2 instances                 ${twoSeconds.toFixed(1)} s → ${perHour(twoSeconds)} checks/hour (${(oneSeconds / twoSeconds).toFixed(2)}×)`);
    console.log(`public analyzer idle        p50 ${p50Idle.toFixed(0)} ms, p90 ${percentile(idle, 90).toFixed(0)} ms (n=${idle.length})`);
    console.log(`public analyzer, monitors   p50 ${p50Busy.toFixed(0)} ms, p90 ${percentile(busy, 90).toFixed(0)} ms (n=${busy.length})`);
    console.log(`busy / idle p50             ${(p50Busy / p50Idle).toFixed(2)}× (target ≤ 1.5×: ${p50Busy <= 1.5 * p50Idle ? "met" : "NOT met"})`);
  } finally {
    await db.end().catch(() => undefined);
    await Promise.all(servers.map((server) => server.stop()));
    await site.close();
    await postgres.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
