import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { POST as createMonitor } from "@/app/api/account/monitors/route";
import { GET as getMonitor } from "@/app/api/account/monitors/[id]/route";
import { POST as checkNow } from "@/app/api/account/monitors/[id]/check/route";
import { GET as listChecks } from "@/app/api/account/monitors/[id]/checks/route";
import { GET as linkHistory } from "@/app/api/account/links/[id]/history/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { alertEvent, linkObservation, monitor, monitorCheck } from "@/lib/db/schema";
import { checkDeps, MonitorBusyError, runCheck, type CheckDeps } from "@/lib/monitor/run-check";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/scripts/lib/server-process";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { expectError } from "./guard-cases";
import { CHECK_KEYS, HISTORY_KEYS, expectMonitorShape, htmlPage, type MonitorJson } from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * Checks against a real fixture site whose pages change between checks, rendered by real Chromium
 * through the analyzer's front door, stored in PGlite and PostgreSQL: a lost link is missing only after
 * the confirming check, comes back with link_restored, a rel change is immediate, a broken target is
 * confirmed, a page error (403, a challenge page) changes no link, page_unreachable fires once at the
 * threshold, page_noindex once, and a JavaScript-inserted link counts.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
process.env.MONITOR_CONFIRM_CHECKS = "2";
process.env.MONITOR_PAGE_ERROR_ALERT_AFTER = "3";
process.env.MONITOR_CONFIRM_DELAY_MINUTES = "10";

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

const MINUTE = 60_000;

describe.each(BACKENDS)("monitor checks (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let run = 0;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `c-${backend}`);
  });

  /** A fresh page path per test (the same fixture site serves both backends). */
  const path = (name: string) => `/${backend}/${name}-${(run += 1)}`;

  async function watch(pagePath: string, links: Array<Record<string, unknown>>): Promise<MonitorJson> {
    const result = await call(createMonitor, "POST", "/api/account/monitors", {
      cookie: team.member.cookie,
      body: { url: site.url(pagePath), links },
    });
    expect(result.status, result.text).toBe(201);
    return result.json as unknown as MonitorJson;
  }

  async function check(id: string): Promise<MonitorJson> {
    const result = await call(checkNow, "POST", "/x", { cookie: team.member.cookie, params: { id } });
    expect(result.status, result.text).toBe(200);
    expectMonitorShape(result.json);
    return result.json;
  }

  async function eventsOf(monitorId: string) {
    return database.db
      .select()
      .from(alertEvent)
      .where(eq(alertEvent.monitorId, monitorId))
      .orderBy(asc(alertEvent.createdAt), asc(alertEvent.id));
  }

  it("present → removed (missing only after the confirming check, due within minutes) → restored (link_restored)", async () => {
    const page = path("placement");
    const target = site.url(`${page}/target`);
    const withLink = htmlPage(`<p>Read <a href="${target}">the best tool</a> today.</p>`);
    site.setPage(page, { body: withLink });
    site.setPage(`${page}/target`, { body: htmlPage("target") });
    const created = await watch(page, [{ target }]);
    const linkId = created.links[0]?.id ?? "";

    const first = await check(created.id);
    expect(first).toMatchObject({
      status: "ok",
      consecutivePageErrors: 0,
      page: { httpStatus: 200, noindex: false, canonicalUrl: null },
    });
    const live = first.links[0];
    expect(live).toMatchObject({
      state: "live",
      current: { href: target, anchorText: "the best tool", linkType: "internal", httpStatus: 200, isNofollow: false },
    });
    expect(live?.firstSeenAt).toBe(live?.lastSeenAt);
    const dayLater = new Date(first.nextCheckAt).getTime() - new Date(first.lastCheckedAt ?? 0).getTime();
    expect(dayLater).toBeGreaterThanOrEqual(1440 * MINUTE);
    expect(dayLater).toBeLessThanOrEqual(1450 * MINUTE);

    site.setPage(page, { body: htmlPage("<p>The review was edited.</p>") });
    const firstMiss = await check(created.id);
    expect(firstMiss.links[0]).toMatchObject({ state: "live", lastSeenAt: live?.lastSeenAt, current: live?.current });
    const soon = new Date(firstMiss.nextCheckAt).getTime() - new Date(firstMiss.lastCheckedAt ?? 0).getTime();
    expect(soon).toBeLessThanOrEqual(10 * MINUTE);

    const confirmed = await check(created.id);
    expect(confirmed.links[0]?.state).toBe("missing");
    // The link as last seen is kept, so a user can see what disappeared.
    expect(confirmed.links[0]?.current).toEqual(live?.current);

    site.setPage(page, { body: withLink });
    const restored = await check(created.id);
    expect(restored.links[0]?.state).toBe("live");

    const events = await eventsOf(created.id);
    expect(events.map((event) => event.type)).toEqual(["link_missing", "link_restored"]);
    // Events carry the public Link; a link that went missing is reported once, as link_missing (no verdict_changed).
    const { signals: _signals, ...publicCurrent } = live?.current ?? {};
    expect(events[0]).toMatchObject({
      trackedLinkId: linkId,
      before: { state: "live", link: publicCurrent },
      after: { state: "missing", link: null },
    });
    expect(confirmed.links[0]?.verdict).toEqual({ value: "does_not_count", reasons: ["missing"] });
    expect(restored.links[0]?.verdict).toEqual({ value: "counts", reasons: [] });
    expect(events[1]).toMatchObject({ before: { state: "missing" }, after: { state: "live", link: { href: target } } });
    expect(events.every((event) => event.checkId !== null)).toBe(true);

    const history = (await call(linkHistory, "GET", "/x", { cookie: team.viewer.cookie, params: { id: linkId } }))
      .json as { items: Array<Record<string, unknown>> };
    history.items.forEach((item) => expect(Object.keys(item).sort()).toEqual(HISTORY_KEYS));
    expect(history.items.map((item) => [item.fromState, item.toState])).toEqual([
      ["missing", "live"],
      ["live", "missing"],
      ["pending", "live"],
    ]);
    expect(history.items[1]).toMatchObject({
      before: { state: "live", link: { href: target } },
      after: { state: "missing", link: null },
    });

    const checks = (
      await call(listChecks, "GET", "/x?limit=2", { cookie: team.viewer.cookie, params: { id: created.id } })
    ).json as { items: Array<Record<string, unknown>>; nextCursor: string | null };
    expect(checks.items).toHaveLength(2);
    checks.items.forEach((item) => expect(Object.keys(item).sort()).toEqual(CHECK_KEYS));
    expect(checks.items[0]).toMatchObject({ outcome: "ok", pageStatus: 200, errorCode: null, linksFound: 1 });
    expect(checks.nextCursor).not.toBeNull();
    const observations = await database.db
      .select()
      .from(linkObservation)
      .where(eq(linkObservation.trackedLinkId, linkId));
    expect(observations.map((o) => o.observed).sort()).toEqual(["live", "live", "missing", "missing"]);
  });

  it("rel turns nofollow: rel_mismatch at once (evidence, not a failed fetch), with rel_changed", async () => {
    const page = path("rel");
    const target = site.url("/p/pricing");
    site.setPage(page, { body: htmlPage(`<a href="${target}">pricing</a>`) });
    const created = await watch(page, [{ target, expectedRel: "follow" }]);
    expect((await check(created.id)).links[0]?.state).toBe("live");
    site.setPage(page, { body: htmlPage(`<a href="${target}" rel="nofollow">pricing</a>`) });
    const changed = await check(created.id);
    expect(changed.links[0]).toMatchObject({ state: "rel_mismatch", current: { isNofollow: true } });
    const events = await eventsOf(created.id);
    expect(events.map((event) => event.type)).toEqual(["rel_changed"]);
    expect(events[0]).toMatchObject({
      before: { state: "live", link: { isNofollow: false } },
      after: { state: "rel_mismatch", link: { isNofollow: true } },
    });
  });

  it("the target starts answering 404: broken after the confirming check (link_broken)", async () => {
    const page = path("broken");
    const target = site.url(`${page}/offer`);
    site.setPage(page, { body: htmlPage(`<a href="${target}">offer</a>`) });
    site.setPage(`${page}/offer`, { body: htmlPage("offer") });
    const created = await watch(page, [{ target }]);
    expect((await check(created.id)).links[0]?.state).toBe("live");
    site.setPage(`${page}/offer`, { status: 404, body: htmlPage("gone") });
    const once = await check(created.id);
    expect(once.links[0]).toMatchObject({ state: "live", current: { httpStatus: 404 } });
    const twice = await check(created.id);
    expect(twice.links[0]?.state).toBe("broken");
    expect((await eventsOf(created.id)).map((event) => event.type)).toEqual(["link_broken"]);
  });

  it("a 403 page and a challenge page are page errors: no link state changes; page_unreachable once, at the threshold", async () => {
    const page = path("walled");
    // Targets must answer: this machine has no internet, and a target that cannot be reached is broken.
    const target = site.url("/p/home");
    const normal = htmlPage(`<a href="${target}">home</a>`);
    site.setPage(page, { body: normal });
    const created = await watch(page, [{ target: `127.0.0.1:${FIXTURE_PORT}`, match: "domain" }]);
    const ok = await check(created.id);
    expect(ok.links[0]?.state).toBe("live");

    site.setPage(page, { status: 403, body: htmlPage("Forbidden") });
    const forbidden = await check(created.id);
    expect(forbidden).toMatchObject({ status: "page_error", consecutivePageErrors: 1, page: { httpStatus: 403 } });
    expect(forbidden.links[0]).toMatchObject({
      state: "live",
      current: ok.links[0]?.current,
      lastSeenAt: ok.links[0]?.lastSeenAt,
    });
    // Retried with backoff: MONITOR_CONFIRM_DELAY_MINUTES × 2^(errors − 1).
    expect(new Date(forbidden.nextCheckAt).getTime() - new Date(forbidden.lastCheckedAt ?? 0).getTime()).toBe(
      10 * MINUTE,
    );

    site.setPage(page, { body: htmlPage("<p>Checking your browser</p>", "", "Just a moment...") });
    const challenged = await check(created.id);
    expect(challenged).toMatchObject({ status: "page_error", consecutivePageErrors: 2, page: { httpStatus: 200 } });
    expect(challenged.links[0]?.state).toBe("live");
    expect(new Date(challenged.nextCheckAt).getTime() - new Date(challenged.lastCheckedAt ?? 0).getTime()).toBe(
      20 * MINUTE,
    );
    expect(await eventsOf(created.id)).toEqual([]);

    site.setPage(page, { status: 503, body: htmlPage("down") });
    expect((await check(created.id)).consecutivePageErrors).toBe(3);
    expect((await check(created.id)).consecutivePageErrors).toBe(4);
    const events = await eventsOf(created.id);
    expect(events.map((event) => event.type)).toEqual(["page_unreachable"]);
    expect(events[0]).toMatchObject({
      trackedLinkId: null,
      before: { status: "page_error", consecutivePageErrors: 2 },
      after: { status: "page_error", consecutivePageErrors: 3, errorCode: "UPSTREAM_ERROR", pageStatus: 503 },
    });

    const checks = (await call(listChecks, "GET", "/x", { cookie: team.viewer.cookie, params: { id: created.id } }))
      .json as { items: Array<Record<string, unknown>> };
    expect(checks.items.map((item) => [item.outcome, item.pageStatus, item.errorCode])).toEqual([
      ["page_error", 503, "UPSTREAM_ERROR"],
      ["page_error", 503, "UPSTREAM_ERROR"],
      ["page_error", 200, "UNPROCESSABLE_PAGE"],
      ["page_error", 403, "UNPROCESSABLE_PAGE"],
      ["ok", 200, null],
    ]);
    expect(checks.items[0]?.linksFound).toBeNull();

    site.setPage(page, { body: normal });
    const back = await check(created.id);
    expect(back).toMatchObject({ status: "ok", consecutivePageErrors: 0 });
    expect(back.links[0]?.state).toBe("live");
  });

  it("a page that starts redirecting to another scheme is a page error with errorCode BLOCKED_REDIRECT; its links keep their state", async () => {
    const page = path("moved-away");
    site.setPage(page, { body: htmlPage(`<a href="${site.url("/p/home")}">home</a>`) });
    const created = await watch(page, [{ target: `127.0.0.1:${FIXTURE_PORT}`, match: "domain" }]);
    const ok = await check(created.id);
    expect(ok.links[0]?.state).toBe("live");

    site.setPage(page, { status: 301, body: "", headers: { location: "gopher://example.com:70/1" } });
    const moved = await check(created.id);
    expect(moved).toMatchObject({ status: "page_error", consecutivePageErrors: 1 });
    expect(moved.links[0]).toMatchObject({ state: "live", lastSeenAt: ok.links[0]?.lastSeenAt });
    const checks = (await call(listChecks, "GET", "/x", { cookie: team.viewer.cookie, params: { id: created.id } }))
      .json as { items: Array<Record<string, unknown>> };
    expect(checks.items.map((item) => [item.outcome, item.errorCode])).toEqual([
      ["page_error", "BLOCKED_REDIRECT"],
      ["ok", null],
    ]);
  });

  it("a link inserted by JavaScript counts as present; a noindex page is page_noindex once", async () => {
    const page = path("scripted");
    const target = site.url("/p/guide");
    const script = `<div id="slot"></div><script>window.addEventListener("load", () => setTimeout(() => { const a = document.createElement("a"); a.href = ${JSON.stringify(target)}; a.textContent = "guide"; document.getElementById("slot").appendChild(a); }, 100));</script>`;
    site.setPage(page, { body: htmlPage(script) });
    const created = await watch(page, [{ target, expectedAnchor: "Guide" }]);
    const first = await check(created.id);
    expect(first.links[0]).toMatchObject({ state: "live", current: { href: target, anchorText: "guide" } });

    site.setPage(page, { body: htmlPage(script, '<meta name="robots" content="noindex">') });
    expect((await check(created.id)).page).toMatchObject({ noindex: true, httpStatus: 200 });
    await check(created.id);
    const events = await eventsOf(created.id);
    // The page's event, and the link's verdict change (page_noindex names the page, not the link).
    expect(events.map((event) => event.type).sort()).toEqual(["page_noindex", "verdict_changed"]);
    expect(events.find((event) => event.type === "page_noindex")).toMatchObject({
      trackedLinkId: null,
      before: { noindex: false },
      after: { noindex: true, httpStatus: 200 },
    });
    expect(events.find((event) => event.type === "verdict_changed")).toMatchObject({
      trackedLinkId: created.links[0]?.id,
      before: { value: "at_risk", reasons: ["script_only"] },
      after: { value: "does_not_count", reasons: ["page_noindex", "script_only"] },
    });
  });

  it("two concurrent “Check now”: one runs, the other is 409 with a hint to retry", async () => {
    const page = path("slow");
    site.setPage(page, { body: htmlPage(`<a href="${site.url("/p/x")}">x</a>`), delayMs: 1500 });
    const created = await watch(page, [{ target: site.url("/p/x") }]);
    const [a, b] = await Promise.all([
      call(checkNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } }),
      new Promise((resolve) => setTimeout(resolve, 200)).then(() =>
        call(checkNow, "POST", "/x", { cookie: team.admin.cookie, params: { id: created.id } }),
      ),
    ]);
    expect(a.status, a.text).toBe(200);
    expectError(b, 409, "CONFLICT");
    expect(String(b.json?.hint)).toMatch(/retry/i);
    const checks = await database.db.select().from(monitorCheck).where(eq(monitorCheck.monitorId, created.id));
    expect(checks).toHaveLength(1);
    // One check ran: the visitor's render and Googlebot's (google-view.md §2: Check now renders it).
    expect(site.hits(page)).toBe(2);
    // The hold is released: the next "Check now" runs.
    site.setPage(page, { body: htmlPage(`<a href="${site.url("/p/x")}">x</a>`) });
    expect(
      (await call(checkNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } })).status,
    ).toBe(200);
  });

  it("a scheduled check fences on its due time (injected clock): applied once, then superseded; paused or held monitors are not checked", async () => {
    const page = path("scheduled");
    site.setPage(page, { body: htmlPage(`<a href="${site.url("/p/y")}">y</a>`) });
    const created = await watch(page, [{ target: site.url("/p/y") }]);
    const config = parseConfig(process.env);
    const clock = new Date("2030-01-01T00:00:00.000Z");
    const deps: CheckDeps = { ...checkDeps({ db: database.db, settings: config, now: () => clock }), random: () => 0 };
    const dueAt = new Date(created.nextCheckAt);

    const applied = await runCheck(deps, team.organizationId, created.id, { kind: "schedule", dueAt });
    expect(applied).toMatchObject({ status: "applied", outcome: "ok" });
    const [row] = await database.db.select().from(monitor).where(eq(monitor.id, created.id));
    // No jitter (random 0): exactly one interval after the injected clock.
    expect(row?.nextCheckAt.toISOString()).toBe("2030-01-02T00:00:00.000Z");
    expect(row?.lastCheckedAt?.toISOString()).toBe("2030-01-01T00:00:00.000Z");
    expect(row?.checkingUntil).toBeNull();
    // The same job again (a retry after a crash that happened after the commit): nothing applies twice.
    expect(await runCheck(deps, team.organizationId, created.id, { kind: "schedule", dueAt })).toEqual({
      status: "superseded",
    });
    const [checkRow] = await database.db
      .select()
      .from(monitorCheck)
      .where(and(eq(monitorCheck.monitorId, created.id), eq(monitorCheck.dueAt, dueAt)));
    expect(checkRow?.trigger).toBe("schedule");

    const next = row?.nextCheckAt ?? new Date();
    await database.db.update(monitor).set({ paused: true }).where(eq(monitor.id, created.id));
    expect(await runCheck(deps, team.organizationId, created.id, { kind: "schedule", dueAt: next })).toEqual({
      status: "superseded",
    });
    await database.db
      .update(monitor)
      .set({ paused: false, checkingUntil: new Date(clock.getTime() + MINUTE) })
      .where(eq(monitor.id, created.id));
    await expect(
      runCheck(deps, team.organizationId, created.id, { kind: "schedule", dueAt: next }),
    ).rejects.toBeInstanceOf(MonitorBusyError);
    expectError(
      await call(checkNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } }),
      409,
      "CONFLICT",
    );
    // A hold that ran out (a crashed checker's) is taken over.
    const later: CheckDeps = { ...deps, now: () => new Date(clock.getTime() + 2 * MINUTE) };
    expect(await runCheck(later, team.organizationId, created.id, { kind: "schedule", dueAt: next })).toMatchObject({
      status: "applied",
    });
    const checks = await database.db.select().from(monitorCheck).where(eq(monitorCheck.monitorId, created.id));
    expect(checks).toHaveLength(2);
    const view = (await call(getMonitor, "GET", "/x", { cookie: team.viewer.cookie, params: { id: created.id } }))
      .json as unknown as MonitorJson;
    expect(view.lastCheckedAt).toBe("2030-01-01T00:02:00.000Z");
  });
});
