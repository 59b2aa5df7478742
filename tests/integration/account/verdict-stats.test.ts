import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { GET as dailyStats } from "@/app/api/account/stats/daily/route";
import { DELETE as deleteLink, PATCH as patchLink } from "@/app/api/account/links/[id]/route";
import { POST as importLinks } from "@/app/api/account/links/import/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { retiredVerdictSpan, trackedLink, verdictTransition } from "@/lib/db/schema";
import { checkDeps, runCheck, type CheckDeps } from "@/lib/monitor/run-check";
import type { DailyStats, DailyStatsDay } from "@/lib/schemas/stats";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/scripts/lib/server-process";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { at, insertLinkWithHistory, insertMonitor } from "./history-setup";
import { csvRequest, htmlPage } from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * GET /api/account/stats/daily counts verdicts (evidence-and-reports.md "History and charts"), on PGlite
 * and PostgreSQL: real checks of a fixture page rendered by Chromium, run with the clock set to noon UTC of
 * past days, move the links' verdicts; then a link is deleted and another re-targeted today. Each day's
 * counts, at_risk and does_not_count (and states) are exact: a first verdict counts from its day, a change
 * moves a link from one value to another, a link created later is in no count before its day, a deleted
 * link keeps its past days (its verdict spans), a new target or match mode (an edit, an import) leaves
 * the verdicts today.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
process.env.MONITOR_CONFIRM_CHECKS = "2";

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

const KEYS = [
  "live",
  "missing",
  "broken",
  "rel_mismatch",
  "anchor_mismatch",
  "pending",
  "counts",
  "at_risk",
  "does_not_count",
] as const;
type Counts = Partial<Record<(typeof KEYS)[number], number>>;

describe.each(BACKENDS)("daily stats of verdicts over past days (%s)", (backend) => {
  let database: Database;
  let team: Team;
  const page = `/verdict-stats-${backend}/post`;
  const url = (name: string) => `http://127.0.0.1:${FIXTURE_PORT}/verdict-stats-${backend}/${name}`;
  const target = { a: url("a"), b: url("b"), c: url("c"), d: url("d"), e: url("e"), f: url("f"), g: url("g") };
  const ids = { a: "", b: "", c: "", d: "", e: "", f: "", g: "" };
  let monitorId = "";
  let answer: DailyStats;

  const anchor = (href: string, rel = "") => `<a href="${href}"${rel ? ` rel="${rel}"` : ""}>${href.slice(-1)}</a>`;
  const checkAt = async (when: Date) => {
    const deps: CheckDeps = {
      ...checkDeps({ db: database.db, settings: parseConfig(process.env), now: () => when }),
      random: () => 0,
    };
    expect(await runCheck(deps, team.organizationId, monitorId, { kind: "manual" })).toMatchObject({
      status: "applied",
      outcome: "ok",
    });
  };

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `vs-${backend}`);
    const org = team.organizationId;
    for (const href of Object.values(target)) site.setPage(new URL(href).pathname, { body: htmlPage("a shop") });
    monitorId = await insertMonitor(database, org, {
      url: `http://127.0.0.1:${FIXTURE_PORT}${page}`,
      createdAt: at(6, 0),
    });
    const link = (href: string, createdAt: Date) =>
      insertLinkWithHistory(database, org, monitorId, createdAt, [], { target: href });
    // a: counts from its first check. b: counts, then at risk (footer), then does not count (nofollow).
    // c: counts, deleted today. d: created 2 days ago. e: never on the page (a confirmed loss: does not count).
    // f: counts, re-targeted today (no verdict again). g: counts, its match mode changed by an import today.
    ids.a = await link(target.a, at(6, 0));
    ids.b = await link(target.b, at(6, 0));
    ids.c = await link(target.c, at(6, 0));
    ids.e = await link(target.e, at(6, 0));
    ids.f = await link(target.f, at(6, 0));
    ids.g = await link(target.g, at(6, 0));

    site.setPage(page, {
      body: htmlPage(
        `<main><p>${[target.a, target.b, target.c, target.f, target.g].map((href) => anchor(href)).join(" ")}</p></main>`,
      ),
    });
    await checkAt(at(5));
    site.setPage(page, {
      body: htmlPage(
        `<main><p>${[target.a, target.c, target.f, target.g].map((href) => anchor(href)).join(" ")}</p></main><footer>${anchor(target.b)}</footer>`,
      ),
    });
    await checkAt(at(3));
    ids.d = await link(target.d, at(2, 0));
    site.setPage(page, {
      body: htmlPage(
        `<main><p>${[target.a, target.c, target.f, target.g, target.d].map((href) => anchor(href)).join(" ")} ${anchor(target.b, "nofollow")}</p></main>`,
      ),
    });
    await checkAt(at(1));

    expect((await call(deleteLink, "DELETE", "/x", { cookie: team.member.cookie, params: { id: ids.c } })).status).toBe(
      204,
    );
    const patched = await call(patchLink, "PATCH", "/x", {
      cookie: team.member.cookie,
      params: { id: ids.f },
      body: { target: url("f-moved") },
    });
    expect(patched.status, patched.text).toBe(200);
    const csv = `page_url,target_url,match\nhttp://127.0.0.1:${FIXTURE_PORT}${page},${target.g},prefix\n`;
    const imported = await importLinks(csvRequest("/api/account/links/import", team.member.cookie, csv), {
      params: Promise.resolve({}),
    });
    expect(await imported.json()).toMatchObject({ created: 0, updated: 1, errors: [] });
    const result = await call(dailyStats, "GET", "/api/account/stats/daily?days=30", { cookie: team.viewer.cookie });
    expect(result.status, result.text).toBe(200);
    answer = result.json as unknown as DailyStats;
  }, 180_000);

  it("the checks left the verdicts the test expects (the setup itself)", async () => {
    const rows = await database.db
      .select({ id: trackedLink.id, state: trackedLink.state, verdict: trackedLink.verdict })
      .from(trackedLink)
      .where(eq(trackedLink.monitorId, monitorId));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(ids.a)).toMatchObject({ state: "live", verdict: { value: "counts" } });
    expect(byId.get(ids.b)).toMatchObject({
      state: "live",
      verdict: { value: "does_not_count", reasons: ["nofollow"] },
    });
    expect(byId.get(ids.d)).toMatchObject({ state: "live", verdict: { value: "counts" } });
    expect(byId.get(ids.e)).toMatchObject({
      state: "missing",
      verdict: { value: "does_not_count", reasons: ["missing"] },
    });
    expect(byId.get(ids.f)).toMatchObject({ state: "pending", verdict: null });
    expect(byId.get(ids.g)).toMatchObject({ state: "pending", verdict: null });
    expect(byId.has(ids.c)).toBe(false);
  });

  it("every change of a verdict's value is stored with its time and check, the first one (from null) and a reset included", async () => {
    const rows = await database.db
      .select()
      .from(verdictTransition)
      .where(eq(verdictTransition.organizationId, team.organizationId))
      .orderBy(asc(verdictTransition.createdAt));
    const of = (id: string) =>
      rows
        .filter((row) => row.trackedLinkId === id)
        .map((row) => [row.fromValue, row.toValue, row.createdAt.toISOString(), row.checkId !== null]);
    expect(of(ids.a)).toEqual([[null, "counts", at(5).toISOString(), true]]);
    expect(of(ids.b)).toEqual([
      [null, "counts", at(5).toISOString(), true],
      ["counts", "at_risk", at(3).toISOString(), true],
      ["at_risk", "does_not_count", at(1).toISOString(), true],
    ]);
    expect(of(ids.d)).toEqual([[null, "counts", at(1).toISOString(), true]]);
    // A first miss keeps no verdict; the confirming check gives the first one.
    expect(of(ids.e)).toEqual([[null, "does_not_count", at(3).toISOString(), true]]);
    // The re-target (an edit, no check) resets it to null.
    expect(of(ids.f).map((row) => [row[0], row[1], row[3]])).toEqual([
      [null, "counts", true],
      ["counts", null, false],
    ]);
    expect(of(ids.g).map((row) => [row[0], row[1], row[3]])).toEqual([
      [null, "counts", true],
      ["counts", null, false],
    ]);
    // The deleted link's changes went with it; its verdict is a span from its first verdict to the deletion.
    expect(of(ids.c)).toEqual([]);
    const spans = await database.db
      .select()
      .from(retiredVerdictSpan)
      .where(eq(retiredVerdictSpan.trackedLinkId, ids.c));
    expect(spans.map((span) => [span.value, span.startedAt.toISOString()])).toEqual([["counts", at(5).toISOString()]]);
    expect(Date.now() - (spans[0]?.endedAt.getTime() ?? 0)).toBeLessThan(60_000);
  });

  it("each day's counts, at_risk and does_not_count (and states) are exact", () => {
    const expected: Record<number, Counts> = {
      // a, b, c, e, f, g created (pending), no verdict yet.
      6: { pending: 6 },
      // First check: a, b, c, f, g live and counting; e missed once (still pending, no verdict).
      5: { live: 5, pending: 1, counts: 5 },
      4: { live: 5, pending: 1, counts: 5 },
      // b in the footer (at risk); e's loss confirmed (missing, does not count).
      3: { live: 5, missing: 1, counts: 4, at_risk: 1, does_not_count: 1 },
      // d created: pending, no verdict.
      2: { live: 5, missing: 1, pending: 1, counts: 4, at_risk: 1, does_not_count: 1 },
      // d counts; b nofollow (does not count).
      1: { live: 6, missing: 1, counts: 5, does_not_count: 2 },
      // c deleted (not counted today); f re-targeted and g re-matched (pending, no verdict).
      0: { live: 3, missing: 1, pending: 2, counts: 2, does_not_count: 2 },
    };
    const pick = (day: DailyStatsDay | undefined) => Object.fromEntries(KEYS.map((key) => [key, day?.[key]]));
    for (let daysAgo = 0; daysAgo < 30; daysAgo += 1) {
      const day = answer.days[answer.days.length - 1 - daysAgo];
      const want = Object.fromEntries(KEYS.map((key) => [key, expected[daysAgo]?.[key] ?? 0]));
      expect({ daysAgo, ...pick(day) }).toEqual({ daysAgo, ...want });
    }
  });
});
