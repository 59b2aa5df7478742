import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { POST as createMonitor } from "@/app/api/account/monitors/route";
import { renderGoogleView, shutdownAnalyzer } from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { monitor, trackedLink } from "@/lib/db/schema";
import { checkDeps, runCheck, type CheckDeps } from "@/lib/monitor/run-check";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/scripts/lib/server-process";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { htmlPage, type MonitorJson } from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * When a monitor renders Google's view (google-view.md §2), with an injected clock and scheduled checks
 * (real Chromium, the route handlers, PGlite and PostgreSQL): on the first check; not again inside
 * GOOGLE_VIEW_INTERVAL_HOURS while nothing is about to change; on a check whose visitor's render would
 * change a tracked link's verdict or state, before it stores anything (so the verdict it writes reads the
 * fresh view, not the stale one); not on a first miss that changes neither; and again once the interval
 * has passed. Between renders the last view stands and `renderedAt` says how old it is.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
process.env.MONITOR_CONFIRM_CHECKS = "2";
process.env.GOOGLE_VIEW_INTERVAL_HOURS = "24";

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

const HOUR = 3_600_000;

describe.each(BACKENDS)("Google view schedule (%s)", (backend) => {
  let database: Database;
  let team: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `gv-${backend}`);
  });

  it("first check, then only on a pending change or after the interval; the verdict written reads the fresh view", async () => {
    const page = `/${backend}/google-interval`;
    const target = site.url(`${page}/target`);
    site.setPage(`${page}/target`, { body: htmlPage("target") });
    const body = (link: string) => ({ body: htmlPage(`<main><p>Review</p>${link}</main>`) });
    site.setPage(page, body(`<a href="${target}">the tool</a>`));
    const created = await call(createMonitor, "POST", "/api/account/monitors", {
      cookie: team.member.cookie,
      body: { url: site.url(page), links: [{ target }] },
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as unknown as MonitorJson).id;

    const t0 = new Date("2030-01-01T00:00:00.000Z").getTime();
    let clock = t0;
    let renders = 0;
    const config = parseConfig(process.env);
    const deps: CheckDeps = {
      ...checkDeps({ db: database.db, settings: config, now: () => new Date(clock) }),
      random: () => 0,
      renderGoogle: (url, options) => {
        renders += 1;
        return renderGoogleView(url, options);
      },
    };
    const read = async () => {
      const [row] = await database.db.select().from(monitor).where(eq(monitor.id, id));
      const [link] = await database.db.select().from(trackedLink).where(eq(trackedLink.monitorId, id));
      return { row, link };
    };
    /** A scheduled check at `hours` after t0 (its due time: the one the monitor has now). */
    const checkAt = async (hours: number) => {
      clock = t0 + hours * HOUR;
      const { row } = await read();
      const result = await runCheck(deps, team.organizationId, id, {
        kind: "schedule",
        dueAt: row?.nextCheckAt ?? new Date(),
      });
      expect(result).toMatchObject({ status: "applied", outcome: "ok" });
      return read();
    };

    // The first check renders it.
    let state = await checkAt(0);
    expect(renders).toBe(1);
    expect(state.row?.pageGoogleView).toMatchObject({ status: "ok", renderedAt: new Date(t0).toISOString() });
    expect(state.link?.verdict).toEqual({ value: "counts", reasons: [] });

    // Inside the interval and nothing about to change: the last view stands.
    state = await checkAt(1);
    expect(renders).toBe(1);
    expect(state.row?.pageGoogleView?.renderedAt).toBe(new Date(t0).toISOString());
    expect(state.link?.current?.signals?.inGoogleView).toBe(true);

    // The visitor's render would change the verdict (now nofollow): rendered before storing.
    site.setPage(page, body(`<a href="${target}" rel="nofollow">the tool</a>`));
    state = await checkAt(2);
    expect(renders).toBe(2);
    expect(state.row?.pageGoogleView?.renderedAt).toBe(new Date(t0 + 2 * HOUR).toISOString());
    expect(state.link?.verdict).toEqual({ value: "does_not_count", reasons: ["nofollow"] });

    // Gone for everyone. A first miss changes neither state nor verdict (it waits for confirmation): no render,
    // though the view that stands still has the link.
    site.setPage(page, body(""));
    state = await checkAt(3);
    expect(renders).toBe(2);
    expect(state.link?.state).toBe("live");
    expect(state.link?.verdict).toEqual({ value: "does_not_count", reasons: ["nofollow"] });

    // The confirming check changes the state: rendered first, so the verdict does not claim cloaking from the
    // stale view (which still had the link): Googlebot does not see it either.
    state = await checkAt(4);
    expect(renders).toBe(3);
    expect(state.link?.state).toBe("missing");
    expect(state.link?.verdict).toEqual({ value: "does_not_count", reasons: ["missing"] });

    // Nothing changes: not inside the interval, once past it.
    state = await checkAt(4 + 23);
    expect(renders).toBe(3);
    state = await checkAt(4 + 24);
    expect(renders).toBe(4);
    expect(state.row?.pageGoogleView?.renderedAt).toBe(new Date(t0 + 28 * HOUR).toISOString());
  }, 180_000);
});
