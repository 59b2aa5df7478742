import { randomUUID } from "node:crypto";
import type { Client } from "pg";
import type { RunningServer } from "./server-process";
import { sleep } from "./stats";

/**
 * Monitors in bulk for the monitor benchmarks (scripts/bench-monitor.ts): organizations, thousands of due
 * monitors in a few INSERTs, waiting for their checks, and what the checks cost in rows and bytes.
 */

/** Signs a new user up on `server`; answers their personal organization's id. */
export async function newOrganization(server: RunningServer, label: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({
      email: `${label}-${randomUUID()}@example.com`,
      password: "correct horse battery",
      name: label,
    }),
  });
  if (response.status !== 200) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const me = (await (await fetch(`${server.baseUrl}/api/account/me`, { headers: { cookie } })).json()) as {
    organization: { id: string };
  };
  return me.organization.id;
}

export interface NewMonitor {
  url: string;
  /** The tracked link's target (exact match), or none. */
  target?: string;
}

/**
 * Inserts monitors of one organization, all due at `dueAt`, 500 per statement; answers their ids.
 * `googleView` is the monitors' switch of Google's view (google-view.md §2; the column's default: on).
 */
export async function insertDueMonitors(
  db: Client,
  organizationId: string,
  monitors: readonly NewMonitor[],
  dueAt: Date,
  { googleView = true }: { googleView?: boolean } = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < monitors.length; start += 500) {
    const chunk = monitors.slice(start, start + 500).map((monitor) => ({ ...monitor, id: randomUUID() }));
    ids.push(...chunk.map((monitor) => monitor.id));
    const values = chunk.flatMap((monitor) => [monitor.id, organizationId, monitor.url, 1440, dueAt, googleView]);
    const rows = chunk.map(
      (_, i) => `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6})`,
    );
    await db.query(
      `INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at, google_view) VALUES ${rows.join(", ")}`,
      values,
    );
    const tracked = chunk.filter((monitor) => monitor.target !== undefined);
    if (tracked.length === 0) continue;
    const linkValues = tracked.flatMap((monitor) => [
      randomUUID(),
      organizationId,
      monitor.id,
      monitor.target,
      "exact",
      "import",
    ]);
    const linkRows = tracked.map(
      (_, i) => `($${i * 6 + 1}, $${i * 6 + 2}, $${i * 6 + 3}, $${i * 6 + 4}, $${i * 6 + 5}, $${i * 6 + 6})`,
    );
    await db.query(
      `INSERT INTO tracked_link (id, organization_id, monitor_id, target, match, source) VALUES ${linkRows.join(", ")}`,
      linkValues,
    );
  }
  return ids;
}

const EPOCH = new Date(0);

/** How many of `ids` have a check started at or after `since`. */
export async function checkedCount(db: Client, ids: readonly string[], since = EPOCH): Promise<number> {
  const result = await db.query<{ n: string }>(
    "SELECT count(DISTINCT monitor_id) AS n FROM monitor_check WHERE monitor_id = ANY($1) AND started_at >= $2",
    [ids, since],
  );
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Waits until every one of `ids` has a check started at or after `since` (progress every 15 s); answers
 * the wall seconds.
 */
export async function drain(
  db: Client,
  ids: readonly string[],
  label: string,
  { limitMs = 3_600_000, since = EPOCH }: { limitMs?: number; since?: Date } = {},
): Promise<number> {
  const started = performance.now();
  let lastPrint = started;
  for (;;) {
    const done = await checkedCount(db, ids, since);
    if (done >= ids.length) return (performance.now() - started) / 1000;
    if (performance.now() - lastPrint > 15_000) {
      console.log(
        `  ${label}: ${done}/${ids.length} checked after ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      lastPrint = performance.now();
    }
    if (performance.now() - started > limitMs) throw new Error(`${label}: not done within ${limitMs / 1000} s`);
    await sleep(500);
  }
}

/** The checks of `ids` started at or after `since` as the database recorded them: first start, last finish, outcomes. */
export async function checkSpan(
  db: Client,
  ids: readonly string[],
  since = EPOCH,
): Promise<{ first: Date; last: Date; outcomes: Record<string, number> }> {
  const span = await db.query<{ first: Date; last: Date }>(
    "SELECT min(started_at) AS first, max(finished_at) AS last FROM monitor_check WHERE monitor_id = ANY($1) AND started_at >= $2",
    [ids, since],
  );
  const outcomes = await db.query<{ outcome: string; n: string }>(
    "SELECT outcome, count(*) AS n FROM monitor_check WHERE monitor_id = ANY($1) AND started_at >= $2 GROUP BY outcome",
    [ids, since],
  );
  return {
    first: span.rows[0]?.first ?? new Date(),
    last: span.rows[0]?.last ?? new Date(),
    outcomes: Object.fromEntries(outcomes.rows.map((row) => [row.outcome, Number(row.n)])),
  };
}

/** The tables a check writes to (its history), and the job engine's. */
export const CHECK_TABLES = [
  "monitor_check",
  "link_observation",
  "link_transition",
  "alert_event",
  "alert_delivery",
  "email_outbox",
  "pgboss.job",
  "pgboss.archive",
];

/** Per table: rows, the bytes of those rows (pg_column_size of each tuple), and the table's disk size with indexes and TOAST. */
export type TableSizes = Record<string, { rows: number; tupleBytes: number; diskBytes: number }>;

export async function tableSizes(db: Client): Promise<TableSizes> {
  const sizes: TableSizes = {};
  for (const table of CHECK_TABLES) {
    const rows = await db.query<{ n: string; b: string }>(
      `SELECT count(*) AS n, coalesce(sum(pg_column_size(t.*)), 0) AS b FROM ${table} t`,
    );
    const disk = await db.query<{ b: string }>("SELECT pg_total_relation_size($1::regclass) AS b", [table]);
    sizes[table] = {
      rows: Number(rows.rows[0]?.n ?? 0),
      tupleBytes: Number(rows.rows[0]?.b ?? 0),
      diskBytes: Number(disk.rows[0]?.b ?? 0),
    };
  }
  return sizes;
}

/** What `after` has more than `before`, per table and in total, divided by `checks`. */
export function growthPerCheck(
  before: TableSizes,
  after: TableSizes,
  checks: number,
): { table: string; rows: number; tupleBytes: number; diskBytes: number }[] {
  const rows = CHECK_TABLES.map((table) => {
    const a = before[table] ?? { rows: 0, tupleBytes: 0, diskBytes: 0 };
    const b = after[table] ?? a;
    return {
      table,
      rows: (b.rows - a.rows) / checks,
      tupleBytes: (b.tupleBytes - a.tupleBytes) / checks,
      diskBytes: (b.diskBytes - a.diskBytes) / checks,
    };
  });
  const total = rows.reduce(
    (sum, row) => ({
      table: "total",
      rows: sum.rows + row.rows,
      tupleBytes: sum.tupleBytes + row.tupleBytes,
      diskBytes: sum.diskBytes + row.diskBytes,
    }),
    { table: "total", rows: 0, tupleBytes: 0, diskBytes: 0 },
  );
  return [...rows, total];
}
