import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { MIGRATIONS_FOLDER, type Database } from "@/lib/db";
import { linkObservation, monitorCheck, trackedLink, verdictTransition } from "@/lib/db/schema";
import type { DailyStats } from "@/lib/schemas/stats";
import { dailyStats } from "@/lib/stats/daily-query";
import { BACKENDS, closeAll, useFreshDatabase } from "./harness";
import { at, insertLinkWithHistory, insertMonitor } from "./history-setup";

/**
 * Links that got their verdict before its changes were kept (migration 0007_verdict_history): on PGlite
 * and PostgreSQL, a database migrated up to 0006 holds links checked over past days, some with a verdict;
 * the migration gives each of those a first verdict (null → its value) at its latest check, so the daily
 * counts have them from that day on and in no verdict before (docs/account-api.md "History and charts").
 */

const LAST_BEFORE = "0006_evidence";
let before = "";

beforeAll(() => {
  // The migrations as they were before 0007: the same files, the journal cut after 0006.
  before = fs.mkdtempSync(path.join(os.tmpdir(), "linklens-migrations-"));
  fs.mkdirSync(path.join(before, "meta"));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ tag: string }>;
  };
  const cut = journal.entries.findIndex((entry) => entry.tag === LAST_BEFORE);
  expect(cut).toBeGreaterThan(0);
  const entries = journal.entries.slice(0, cut + 1);
  fs.writeFileSync(path.join(before, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries)
    fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));
});

afterAll(async () => {
  await closeAll();
  fs.rmSync(before, { recursive: true, force: true });
});

describe.each(BACKENDS)("verdict history backfill (%s)", (backend) => {
  let database: Database;
  const organizationId = `backfill-${backend}`;
  const ids = { counted: "", changed: "", none: "" };
  let stats: DailyStats;

  beforeAll(async () => {
    database = await useFreshDatabase(backend, { migrations: before });
    // Raw SQL: the schema of today has columns a database at 0006 does not.
    await database.db.execute(
      sql`INSERT INTO "organization" ("id", "name", "slug", "created_at") VALUES (${organizationId}, 'Backfill', ${organizationId}, ${at(30).toISOString()})`,
    );
    const page = await insertMonitor(database, organizationId, { createdAt: at(20) });
    // Checked 10 and 4 days ago; counts since (its last check, 4 days ago, is what is known).
    ids.counted = await insertLinkWithHistory(database, organizationId, page, at(10, 0), [{ at: at(10), to: "live" }], {
      verdict: { value: "counts", reasons: [] },
    });
    await observe(ids.counted, page, at(4));
    // Live, then at risk: its last check 2 days ago.
    ids.changed = await insertLinkWithHistory(database, organizationId, page, at(10, 0), [{ at: at(10), to: "live" }], {
      verdict: { value: "at_risk", reasons: ["boilerplate_region"] },
    });
    await observe(ids.changed, page, at(2));
    // Never checked: no verdict, nothing to backfill.
    ids.none = await insertLinkWithHistory(database, organizationId, page, at(10, 0));

    await database.migrate();
    stats = await dailyStats({ db: database.db, organization: { id: organizationId }, now: () => new Date() }, 30);
  }, 120_000);

  /** A later check of the link that saw it in the same state (an observation, no transition). */
  async function observe(linkId: string, monitorId: string, when: Date) {
    const checkId = randomUUID();
    await database.db.insert(monitorCheck).values({
      id: checkId,
      organizationId,
      monitorId,
      trigger: "schedule",
      startedAt: when,
      finishedAt: when,
      outcome: "ok",
      pageStatus: 200,
      linksFound: 1,
      createdAt: when,
    });
    await database.db.insert(linkObservation).values({
      id: randomUUID(),
      organizationId,
      checkId,
      trackedLinkId: linkId,
      observed: "live",
      link: null,
      stateBefore: "live",
      stateAfter: "live",
      createdAt: when,
    });
  }

  it("gives each link with a verdict one first verdict at its latest check, with that check", async () => {
    const rows = await database.db
      .select()
      .from(verdictTransition)
      .where(eq(verdictTransition.organizationId, organizationId));
    const latest = async (linkId: string) =>
      (await database.db.select().from(linkObservation).where(eq(linkObservation.trackedLinkId, linkId))).sort(
        (a, b) => b.createdAt.getTime() - a.createdAt.getTime(),
      )[0];
    const of = (linkId: string) =>
      rows
        .filter((row) => row.trackedLinkId === linkId)
        .map((row) => [row.fromValue, row.toValue, row.createdAt.toISOString(), row.checkId]);
    expect(of(ids.counted)).toEqual([[null, "counts", at(4).toISOString(), (await latest(ids.counted))?.checkId]]);
    expect(of(ids.changed)).toEqual([[null, "at_risk", at(2).toISOString(), (await latest(ids.changed))?.checkId]]);
    expect(of(ids.none)).toEqual([]);
    expect(rows).toHaveLength(2);
  });

  it("keeps the verdict value beside the state (the generated column the daily counts read)", async () => {
    const values = await database.db
      .select({ id: trackedLink.id, value: trackedLink.verdictValue })
      .from(trackedLink)
      .where(eq(trackedLink.organizationId, organizationId));
    expect(Object.fromEntries(values.map((row) => [row.id, row.value]))).toEqual({
      [ids.counted]: "counts",
      [ids.changed]: "at_risk",
      [ids.none]: null,
    });
  });

  it("the daily counts have each verdict from its backfilled day on, and none before", () => {
    for (let daysAgo = 0; daysAgo < 30; daysAgo += 1) {
      const day = stats.days[stats.days.length - 1 - daysAgo];
      const expected = {
        counts: daysAgo <= 4 ? 1 : 0,
        at_risk: daysAgo <= 2 ? 1 : 0,
        does_not_count: 0,
        live: daysAgo <= 10 ? 2 : 0,
        pending: daysAgo <= 10 ? 1 : 0,
      };
      expect({
        daysAgo,
        counts: day?.counts,
        at_risk: day?.at_risk,
        does_not_count: day?.does_not_count,
        live: day?.live,
        pending: day?.pending,
      }).toEqual({ daysAgo, ...expected });
    }
  });
});
