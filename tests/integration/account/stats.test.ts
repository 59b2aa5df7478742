import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as dailyStats } from "@/app/api/account/stats/daily/route";
import { GET as linkUptime } from "@/app/api/account/links/[id]/uptime/route";
import { GET as linksUptime } from "@/app/api/account/links/uptime/route";
import { DELETE as deleteLink } from "@/app/api/account/links/[id]/route";
import { DELETE as deleteMonitor } from "@/app/api/account/monitors/[id]/route";
import type { Database } from "@/lib/db";
import { retiredLinkSpan } from "@/lib/db/schema";
import { windowDays } from "@/lib/stats/days";
import type { DailyStats, Uptime, UptimeBatch } from "@/lib/schemas/stats";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itEnforcesRoles,
  itFindsIdsBeforeBodies,
  type RouteCase,
} from "./guard-cases";
import { at, DAY, insertLinkWithHistory, insertMonitor } from "./history-setup";
import { makeTeam, type Team } from "./team-setup";

/**
 * History (evidence-and-reports.md "History and charts"): GET /api/account/stats/daily and
 * GET /api/account/links/{id}/uptime against a history written as past checks would have written it,
 * on both backends: days with no change, links created mid-range, links deleted (alone or with their
 * monitor), UTC days, another organization's links, and the guard's order and roles.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

afterAll(async () => {
  await closeAll();
});

const STATE_KEYS = ["live", "missing", "broken", "rel_mismatch", "anchor_mismatch", "pending"] as const;
const DAY_KEYS = ["date", ...STATE_KEYS, "counts", "at_risk", "does_not_count"];

describe.each(BACKENDS)("history (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;
  const ids = { steady: "", recent: "", deleted: "", fresh: "", onDeletedMonitor: "", theirs: "", never: "" };
  let deletedMonitorId = "";

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `h-${backend}`);
    other = await makeTeam(database, `ho-${backend}`);
    const org = team.organizationId;
    const page = await insertMonitor(database, org, { tags: ["guest posts"] });
    // Live from 10 days ago, missing from 5 days ago, live again from 2 days ago (all at noon UTC).
    ids.steady = await insertLinkWithHistory(database, org, page, at(10, 12), [
      { at: at(10, 13), to: "live" },
      { at: at(5, 12), to: "missing" },
      { at: at(2, 12), to: "live" },
    ]);
    // Created 3 days ago (mid-range), checked live an hour later.
    ids.recent = await insertLinkWithHistory(database, org, page, at(3, 12), [{ at: at(3, 13), to: "live" }]);
    // Live for 20 days, deleted below (today): counted every day until yesterday.
    ids.deleted = await insertLinkWithHistory(database, org, page, at(20, 6), [{ at: at(20, 7), to: "live" }]);
    // Created today, never checked.
    ids.fresh = await insertLinkWithHistory(database, org, page, at(0, 0));
    // A link on a monitor deleted below: live from 7 days ago until today.
    deletedMonitorId = await insertMonitor(database, org);
    ids.onDeletedMonitor = await insertLinkWithHistory(database, org, deletedMonitorId, at(7, 1), [
      { at: at(7, 2), to: "broken" },
    ]);
    // Created 100 days ago and never checked (a paused page).
    ids.never = await insertLinkWithHistory(database, org, page, at(100, 0));
    // Another organization's link: never in our counts.
    const theirPage = await insertMonitor(database, other.organizationId);
    ids.theirs = await insertLinkWithHistory(database, other.organizationId, theirPage, at(30), [
      { at: at(30, 13), to: "missing" },
    ]);

    expect(
      (await call(deleteLink, "DELETE", "/x", { cookie: team.member.cookie, params: { id: ids.deleted } })).status,
    ).toBe(204);
    expect(
      (await call(deleteMonitor, "DELETE", "/x", { cookie: team.member.cookie, params: { id: deletedMonitorId } }))
        .status,
    ).toBe(204);
  });

  const ROUTES: RouteCase[] = [
    {
      name: "GET /stats/daily",
      handler: dailyStats,
      method: "GET",
      path: "/api/account/stats/daily?days=90",
      minRole: "viewer",
    },
    {
      name: "GET /links/{id}/uptime",
      handler: linkUptime,
      method: "GET",
      path: "/api/account/links/x/uptime?days=90",
      minRole: "viewer",
      params: () => ({ id: ids.steady }),
    },
    {
      name: "GET /links/uptime",
      handler: linksUptime,
      method: "GET",
      path: "/api/account/links/uptime?ids=a,b",
      minRole: "viewer",
    },
  ];
  describe("guard", () => {
    itChecksGuardOrder(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
  });

  /** The day `daysAgo` days before today in an answer (days run oldest first, ending today). */
  const dayOf = (answer: DailyStats, daysAgo: number) => answer.days[answer.days.length - 1 - daysAgo];

  describe("GET /api/account/stats/daily", () => {
    it("defaults to 30 UTC days, oldest first, ending today, each with every state and verdict count", async () => {
      const result = await call(dailyStats, "GET", "/api/account/stats/daily", { cookie: team.viewer.cookie });
      expect(result.status, result.text).toBe(200);
      expect(result.headers.get("cache-control")).toBe("private, no-store");
      const answer = result.json as unknown as DailyStats;
      expect(Object.keys(answer)).toEqual(["days"]);
      expect(answer.days.map((day) => day.date)).toEqual(windowDays(new Date(), 30));
      for (const day of answer.days) expect(Object.keys(day)).toEqual(DAY_KEYS);
    });

    it.each([90, 365])("?days=%i answers that many days", async (days) => {
      const result = await call(dailyStats, "GET", `/api/account/stats/daily?days=${days}`, {
        cookie: team.viewer.cookie,
      });
      expect((result.json as unknown as DailyStats).days).toHaveLength(days);
      expect((result.json as unknown as DailyStats).days.at(-1)?.date).toBe(new Date().toISOString().slice(0, 10));
    });

    it.each(["7", "31", "0", "-30", "30.0", "abc", ""])("?days=%s is 400 INVALID_REQUEST naming days", async (days) => {
      const result = await call(dailyStats, "GET", `/api/account/stats/daily?days=${days}`, {
        cookie: team.viewer.cookie,
      });
      expectError(result, 400, "INVALID_REQUEST");
      expect(String(result.json?.error)).toMatch(/days/);
    });

    it("an unknown query parameter is 400", async () => {
      expectError(
        await call(dailyStats, "GET", "/api/account/stats/daily?days=30&state=live", { cookie: team.viewer.cookie }),
        400,
        "INVALID_REQUEST",
      );
    });

    it("counts each link on the days it existed, in its state at each day's end", async () => {
      const answer = (await call(dailyStats, "GET", "/api/account/stats/daily?days=30", { cookie: team.viewer.cookie }))
        .json as unknown as DailyStats;
      const expected = (daysAgo: number) => {
        const counts = { live: 0, missing: 0, broken: 0, rel_mismatch: 0, anchor_mismatch: 0, pending: 0 };
        // steady: live days 10–6, missing 5–3, live 2–0.
        if (daysAgo <= 10) counts[daysAgo >= 6 || daysAgo <= 2 ? "live" : "missing"] += 1;
        // recent: live from 3 days ago.
        if (daysAgo <= 3) counts.live += 1;
        // deleted today: live every day from 20 days ago to yesterday, not today.
        if (daysAgo <= 20 && daysAgo >= 1) counts.live += 1;
        // fresh: pending today.
        if (daysAgo === 0) counts.pending += 1;
        // on the deleted monitor: broken from 7 days ago to yesterday.
        if (daysAgo <= 7 && daysAgo >= 1) counts.broken += 1;
        // never checked: pending every day.
        counts.pending += 1;
        return counts;
      };
      for (let daysAgo = 0; daysAgo < 30; daysAgo += 1) {
        const day = dayOf(answer, daysAgo);
        expect({ daysAgo, ...Object.fromEntries(STATE_KEYS.map((key) => [key, day?.[key]])) }).toEqual({
          daysAgo,
          ...expected(daysAgo),
        });
        // None of these links has a verdict (they were never checked by a check that gives one): zero.
        expect([day?.counts, day?.at_risk, day?.does_not_count]).toEqual([0, 0, 0]);
      }
    });

    it("a long window goes back before any link existed: those days are all zero", async () => {
      const answer = (
        await call(dailyStats, "GET", "/api/account/stats/daily?days=365", { cookie: team.viewer.cookie })
      ).json as unknown as DailyStats;
      expect(dayOf(answer, 101)).toMatchObject({ live: 0, missing: 0, broken: 0, pending: 0 });
      expect(dayOf(answer, 100)).toMatchObject({ live: 0, pending: 1 });
      // Days with no change in between repeat the day after them.
      expect(dayOf(answer, 50)).toEqual({ ...dayOf(answer, 21), date: dayOf(answer, 50)?.date });
    });

    it("deleting links keeps their past days: their states became retired spans", async () => {
      const spans = await database.db.select().from(retiredLinkSpan);
      const mine = spans
        .filter((span) => span.trackedLinkId === ids.deleted)
        .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
      expect(mine.map((span) => [span.state, span.startedAt.toISOString()])).toEqual([
        ["pending", at(20, 6).toISOString()],
        ["live", at(20, 7).toISOString()],
      ]);
      expect(mine[0]?.endedAt.toISOString()).toBe(at(20, 7).toISOString());
      expect(Date.now() - (mine[1]?.endedAt.getTime() ?? 0)).toBeLessThan(60_000);
      expect(
        spans
          .filter((span) => span.trackedLinkId === ids.onDeletedMonitor)
          .map((span) => span.state)
          .sort(),
      ).toEqual(["broken", "pending"]);
      expect(spans.every((span) => span.organizationId === team.organizationId)).toBe(true);
    });

    it("another organization sees only its own links", async () => {
      const answer = (
        await call(dailyStats, "GET", "/api/account/stats/daily?days=90", { cookie: other.viewer.cookie })
      ).json as unknown as DailyStats;
      expect(dayOf(answer, 0)).toMatchObject({ live: 0, missing: 1, pending: 0 });
      expect(dayOf(answer, 31)).toMatchObject({ missing: 0, pending: 0 });
      expect(dayOf(answer, 30)).toMatchObject({ missing: 1 });
    });
  });

  describe("GET /api/account/links/{id}/uptime", () => {
    async function uptimeOf(id: string, query = "", cookie = team.viewer.cookie) {
      return call(linkUptime, "GET", `/api/account/links/${id}/uptime${query}`, { cookie, params: { id } });
    }

    it("answers 90 days by default: the state at each day's end and the live share since the first check", async () => {
      const result = await uptimeOf(ids.steady);
      expect(result.status, result.text).toBe(200);
      const answer = result.json as unknown as Uptime;
      expect(Object.keys(answer)).toEqual(["livePercent", "days"]);
      expect(answer.days.map((day) => day.date)).toEqual(windowDays(new Date(), 90));
      const states = answer.days.map((day) => day.state).reverse();
      expect(states.slice(0, 12)).toEqual([
        "live",
        "live",
        "live",
        "missing",
        "missing",
        "missing",
        "live",
        "live",
        "live",
        "live",
        "live",
        null,
      ]);
      expect(states.slice(11).every((state) => state === null)).toBe(true);
      // Missing for exactly 3 days of the time since the first check.
      const since = Date.now() - at(10, 13).getTime();
      expect(answer.livePercent).toBeCloseTo(Math.round(((since - 3 * DAY) / since) * 1000) / 10, 1);
    });

    it("?days=30 and ?days=365 change the window; a link never checked has no live share", async () => {
      expect(((await uptimeOf(ids.recent, "?days=30")).json as unknown as Uptime).days).toHaveLength(30);
      expect(((await uptimeOf(ids.recent, "?days=365")).json as unknown as Uptime).days).toHaveLength(365);
      const never = (await uptimeOf(ids.never)).json as unknown as Uptime;
      expect(never.livePercent).toBeNull();
      expect(never.days.every((day) => day.state === "pending")).toBe(true);
      const fresh = (await uptimeOf(ids.fresh)).json as unknown as Uptime;
      expect(fresh.days.slice(0, -1).every((day) => day.state === null)).toBe(true);
      expect(fresh.days.at(-1)?.state).toBe("pending");
    });

    it("a link created mid-window is null before its day and live once checked: 100 % live", async () => {
      const answer = (await uptimeOf(ids.recent)).json as unknown as Uptime;
      const states = answer.days.map((day) => day.state).reverse();
      expect(states.slice(0, 5)).toEqual(["live", "live", "live", "live", null]);
      expect(answer.livePercent).toBe(100);
    });

    it.each(["7", "abc", "90&x=1"])("?days=%s is 400 for a link of the organization", async (query) => {
      expectError(await uptimeOf(ids.steady, `?days=${query}`), 400, "INVALID_REQUEST");
    });

    it("GET /links/uptime answers a page of links in one request, in the order asked, each once; ids not ours are left out", async () => {
      const asked = [ids.recent, ids.theirs, ids.steady, "no-such-link", ids.deleted, ids.recent, ids.never];
      const result = await call(linksUptime, "GET", `/api/account/links/uptime?ids=${asked.join(",")}`, {
        cookie: team.viewer.cookie,
      });
      expect(result.status, result.text).toBe(200);
      const answer = result.json as unknown as UptimeBatch;
      expect(answer.items.map((item) => item.id)).toEqual([ids.recent, ids.steady, ids.never]);
      for (const item of answer.items) expect(Object.keys(item)).toEqual(["id", "livePercent", "days"]);
      // The same answer as one link's route.
      const single = (await uptimeOf(ids.steady)).json as unknown as Uptime;
      expect(answer.items[1]).toEqual({ id: ids.steady, ...single });
      const year = (
        await call(linksUptime, "GET", `/api/account/links/uptime?days=365&ids=${ids.steady}`, {
          cookie: team.viewer.cookie,
        })
      ).json as unknown as UptimeBatch;
      expect(year.items[0]?.days).toHaveLength(365);
      // Another organization asking for our ids gets nothing.
      expect(
        (
          (
            await call(linksUptime, "GET", `/api/account/links/uptime?ids=${ids.steady},${ids.recent}`, {
              cookie: other.viewer.cookie,
            })
          ).json as unknown as UptimeBatch
        ).items,
      ).toEqual([]);
    });

    it.each([
      ["no ids", ""],
      ["an empty id", "?ids=a,,b"],
      ["a trailing comma", "?ids=a,"],
      ["101 ids", `?ids=${Array.from({ length: 101 }, (_, i) => `id${i}`).join(",")}`],
      ["a bad window", "?ids=a&days=7"],
      ["an unknown parameter", "?ids=a&state=live"],
    ])("GET /links/uptime with %s is 400 INVALID_REQUEST", async (_name, query) => {
      expectError(
        await call(linksUptime, "GET", `/api/account/links/uptime${query}`, { cookie: team.viewer.cookie }),
        400,
        "INVALID_REQUEST",
      );
    });

    it("another organization's link, a deleted link and an unknown id are 404 (also with a bad ?days=)", async () => {
      for (const id of [ids.theirs, ids.deleted, ids.onDeletedMonitor, "no-such-link", `${ids.steady}x`]) {
        expectError(await uptimeOf(id), 404, "NOT_FOUND");
        expectError(await uptimeOf(id, "?days=7"), 404, "NOT_FOUND");
      }
      // …and their own organization reads it.
      expect((await uptimeOf(ids.theirs, "", other.viewer.cookie)).status).toBe(200);
    });
  });
});
