import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { JOB_QUEUES, jobEngineOptions } from "@/lib/db/jobs";
import {
  checkJobId,
  checkPriority,
  DUE_BATCH,
  enqueueDueChecks,
  pickDueChecks,
  type CheckJobData,
} from "@/lib/monitor/due";
import { BACKENDS, closeAll, useFreshDatabase } from "./harness";

/**
 * The dispatcher's fairness on both backends (lib/monitor/due.ts): an organization with a backlog of
 * due checks takes one place per round, so another organization's single due check is in the first
 * round of the batch and fetched by the workers right after the backlog's first; confirmations go
 * first at equal round. Two production instances are tests/integration/monitor-instances.test.ts.
 */

const config = parseConfig({ MONITOR_JOB_EXPIRE_SECONDS: "60" });
afterAll(async () => {
  await closeAll();
});

describe("checkPriority", () => {
  it.each([
    [1, true, -1],
    [1, false, -2],
    [2, true, -3],
    [2, false, -4],
    [50, false, -100],
  ])("round %i, confirming %s → %i", (round, confirming, priority) => {
    expect(checkPriority(round, confirming)).toBe(priority);
  });
  it("orders every round before the next, confirmations first within a round", () => {
    const sorted = [
      [2, false],
      [1, false],
      [2, true],
      [1, true],
    ].sort((a, b) => checkPriority(b[0] as number, b[1] as boolean) - checkPriority(a[0] as number, a[1] as boolean));
    expect(sorted).toEqual([
      [1, true],
      [1, false],
      [2, true],
      [2, false],
    ]);
  });
});

describe.each(BACKENDS)("dispatch (%s)", (backend) => {
  let database: Database;
  let boss: PgBoss;
  const orgs = { backlog: randomUUID(), single: randomUUID(), confirm: randomUUID() };
  const now = new Date("2030-01-01T12:00:00.000Z");
  const singleId = randomUUID();
  const confirmingId = randomUUID();

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    for (const [name, id] of Object.entries(orgs)) {
      await database.execute("INSERT INTO organization (id, name, slug, created_at) VALUES ($1, $2, $3, now())", [
        id,
        name,
        `${name}-${id}`,
      ]);
    }
    // The backlog: 300 monitors due long before the others.
    const values: unknown[] = [];
    const rows: string[] = [];
    for (let i = 0; i < 300; i += 1) {
      values.push(
        randomUUID(),
        orgs.backlog,
        `https://backlog.example/${i}`,
        new Date(now.getTime() - 3_600_000 + i * 1000),
      );
      rows.push(`($${values.length - 3}, $${values.length - 2}, $${values.length - 1}, 1440, $${values.length})`);
    }
    await database.execute(
      `INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ${rows.join(", ")}`,
      values,
    );
    // One monitor due a second ago, in another organization.
    await database.execute(
      "INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ($1, $2, 'https://single.example/', 1440, $3)",
      [singleId, orgs.single, new Date(now.getTime() - 1000)],
    );
    // A third organization: a routine check due long ago and a confirmation due just now.
    await database.execute(
      "INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ($1, $2, 'https://confirm.example/old', 1440, $3)",
      [randomUUID(), orgs.confirm, new Date(now.getTime() - 7_200_000)],
    );
    await database.execute(
      "INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ($1, $2, 'https://confirm.example/new', 1440, $3)",
      [confirmingId, orgs.confirm, new Date(now.getTime() - 500)],
    );
    await database.execute(
      "INSERT INTO tracked_link (id, organization_id, monitor_id, target, match, source, pending_state, pending_count) VALUES ($1, $2, $3, 'https://t.example/', 'exact', 'manual', 'missing', 1)",
      [randomUUID(), orgs.confirm, confirmingId],
    );
    // A paused one and one not due yet: never dispatched.
    await database.execute(
      "INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at, paused) VALUES ($1, $2, 'https://single.example/paused', 1440, $3, true)",
      [randomUUID(), orgs.single, new Date(now.getTime() - 1000)],
    );
    await database.execute(
      "INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ($1, $2, 'https://single.example/later', 1440, $3)",
      [randomUUID(), orgs.single, new Date(now.getTime() + 60_000)],
    );
    boss = new PgBoss({ ...jobEngineOptions(database.execute), migrate: false, supervise: false, schedule: false });
    boss.on("error", () => {});
    await boss.start();
  }, 120_000);

  afterAll(async () => {
    await boss?.stop({ graceful: false, close: false, wait: true });
  });

  it("takes due checks round-robin by organization, confirmations first within a round", async () => {
    const due = await pickDueChecks(database.db, now, 8);
    expect(due.map((row) => [row.organizationId, row.round, row.confirming])).toEqual([
      [orgs.confirm, 1, true],
      [orgs.backlog, 1, false],
      [orgs.single, 1, false],
      [orgs.confirm, 2, false],
      [orgs.backlog, 2, false],
      [orgs.backlog, 3, false],
      [orgs.backlog, 4, false],
      [orgs.backlog, 5, false],
    ]);
    expect(due[0]?.id).toBe(confirmingId);
    expect(due[2]?.id).toBe(singleId);
    const all = await pickDueChecks(database.db, now, 10_000);
    expect(all).toHaveLength(303);
  });

  it("enqueues one batch with the rounds as priorities; the workers fetch the single organization's check among the first", async () => {
    await enqueueDueChecks.run({ db: database.db, boss, config, now });
    // Twice, as two instances would: nothing is enqueued twice.
    await enqueueDueChecks.run({ db: database.db, boss, config, now });
    const count = await database.execute("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'monitor-check'");
    expect(Number(count.rows[0]?.n)).toBe(Math.min(303, DUE_BATCH));
    // One at a time, as the scheduler's workers fetch (a batch's RETURNING has no order).
    const fetched: Array<PgBoss.Job<CheckJobData>> = [];
    for (let i = 0; i < 3; i += 1)
      fetched.push(...((await boss.fetch<CheckJobData>(JOB_QUEUES.monitorCheck, { batchSize: 1 })) ?? []));
    // Round 1 first: the confirmation before the routine checks (those in either order).
    expect(fetched[0]?.id).toBe(checkJobId(confirmingId, new Date(now.getTime() - 500)));
    expect(
      fetched
        .slice(1, 3)
        .map((job) => job.data.organizationId)
        .sort(),
    ).toEqual([orgs.backlog, orgs.single].sort());
    expect(fetched.map((job) => job.id)).toContain(checkJobId(singleId, new Date(now.getTime() - 1000)));
  });
});
