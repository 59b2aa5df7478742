import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { GET as listMonitors, POST as createMonitor } from "@/app/api/account/monitors/route";
import {
  GET as getMonitor,
  PATCH as patchMonitor,
  DELETE as deleteMonitor,
} from "@/app/api/account/monitors/[id]/route";
import { POST as checkNow } from "@/app/api/account/monitors/[id]/check/route";
import { GET as listChecks } from "@/app/api/account/monitors/[id]/checks/route";
import { POST as addLink } from "@/app/api/account/monitors/[id]/links/route";
import { GET as listLinks } from "@/app/api/account/links/route";
import { GET as getLink, PATCH as patchLink, DELETE as deleteLink } from "@/app/api/account/links/[id]/route";
import { GET as linkHistory } from "@/app/api/account/links/[id]/history/route";
import { POST as importLinks } from "@/app/api/account/links/import/route";
import { GET as exportLinks } from "@/app/api/account/links/export/route";
import { POST as track } from "@/app/api/account/audits/[id]/track/route";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import type { Database } from "@/lib/db";
import { audit, auditLink, monitor, trackedLink } from "@/lib/db/schema";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/scripts/lib/server-process";
import { BACKENDS, call, closeAll, makeRequest, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itFindsIdsBeforeBodies,
  itHintsAccountRequests,
  itEnforcesRoles,
  type RouteCase,
} from "./guard-cases";
import {
  csvRequest,
  expectLinkShape,
  expectMonitorShape,
  htmlPage,
  type MonitorJson,
  type TrackedLinkJson,
} from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * Monitored pages and tracked links (docs/spec/account-api.md): every route's guard order, role boundary and
 * tenant isolation, the exact shapes, validation, 409s, the link list's filters and pages, tracking a
 * link of a saved audit, and CSV import and export. Both backends, in-process route handlers.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
// Makes "below the minimum" testable with values of the list (60 < 360).
process.env.MONITOR_MIN_INTERVAL_MINUTES = "360";
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
  site.setPage("/placement", { body: htmlPage('<a href="/p/1">one</a>') });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

const json = <T>(result: { json: unknown }) => result.json as T;

/** A download (not JSON): status, headers and the text. */
async function download(handler: typeof exportLinks, pathname: string, cookie: string) {
  const response = await handler(makeRequest("GET", pathname, { cookie }), { params: Promise.resolve({}) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
const uniqueUrl = () => `https://example.com/page-${randomUUID()}`;

describe.each(BACKENDS)("monitors and tracked links (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;
  let mine: MonitorJson;
  let theirs: MonitorJson;
  const deletableMonitors: string[] = [];
  const deletableLinks: string[] = [];
  let myAuditId: string;
  let theirAuditId: string;

  async function monitorOf(owner: Team, body: Record<string, unknown>): Promise<MonitorJson> {
    const result = await call(createMonitor, "POST", "/api/account/monitors", { cookie: owner.owner.cookie, body });
    expect(result.status, result.text).toBe(201);
    expectMonitorShape(result.json);
    return result.json;
  }

  async function savedAudit(organizationId: string, url: string): Promise<string> {
    const id = randomUUID();
    await database.db.insert(audit).values({
      id,
      organizationId,
      createdByEmail: "x@example.com",
      mode: "url",
      requestedUrl: url,
      url,
      domain: new URL(url).hostname,
      title: "Saved",
      stats: {
        total: 3,
        internal: 1,
        external: 1,
        ignored: 1,
        follow: 1,
        nofollow: 0,
        sponsored: 1,
        ugc: 0,
        broken: 0,
      },
      snapshotGzip: Buffer.from(""),
    });
    const base = {
      auditId: id,
      anchorText: "x",
      isNofollow: false,
      isSponsored: false,
      isUgc: false,
      isImage: false,
      httpStatus: 200,
      matchedGroupName: null,
    };
    await database.db.insert(auditLink).values([
      { ...base, position: 1, href: `${new URL(url).origin}/about`, linkType: "internal" },
      {
        ...base,
        position: 2,
        href: "https://partner.example/offer#top",
        linkType: "external",
        isSponsored: true,
        isNofollow: true,
      },
      { ...base, position: 3, href: "mailto:me@example.com", linkType: "ignored", httpStatus: null },
    ]);
    return id;
  }

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `m-${backend}`);
    other = await makeTeam(database, `o-${backend}`);
    mine = await monitorOf(team, {
      url: site.url("/placement"),
      tags: ["guest posts"],
      links: [{ target: site.url("/p/1") }, { target: "partner.example" }],
    });
    theirs = await monitorOf(other, {
      url: "https://their.example/post",
      links: [{ target: "https://mysite.example/x" }],
    });
    for (let i = 0; i < 20; i += 1) deletableMonitors.push((await monitorOf(team, { url: uniqueUrl() })).id);
    for (let i = 0; i < 20; i += 1) {
      const result = await call(addLink, "POST", "/x", {
        cookie: team.owner.cookie,
        params: { id: mine.id },
        body: { target: `https://delete.example/${i}` },
      });
      deletableLinks.push(json<TrackedLinkJson>(result).id);
    }
    myAuditId = await savedAudit(team.organizationId, "https://blog.example/review");
    theirAuditId = await savedAudit(other.organizationId, "https://their.example/review");
  });

  const ROUTES: RouteCase[] = [
    { name: "GET /monitors", handler: listMonitors, method: "GET", path: "/api/account/monitors", minRole: "viewer" },
    {
      name: "POST /monitors",
      handler: createMonitor,
      method: "POST",
      path: "/api/account/monitors",
      minRole: "member",
      body: () => ({ url: uniqueUrl() }),
    },
    {
      name: "GET /monitors/{id}",
      handler: getMonitor,
      method: "GET",
      path: "/x",
      minRole: "viewer",
      params: () => ({ id: mine.id }),
    },
    {
      name: "PATCH /monitors/{id}",
      handler: patchMonitor,
      method: "PATCH",
      path: "/x",
      minRole: "member",
      body: () => ({ tags: ["guest posts"] }),
      params: () => ({ id: mine.id }),
    },
    {
      name: "DELETE /monitors/{id}",
      handler: deleteMonitor,
      method: "DELETE",
      path: "/x",
      minRole: "member",
      params: () => ({ id: deletableMonitors.pop() ?? "none" }),
    },
    {
      name: "POST /monitors/{id}/check",
      handler: checkNow,
      method: "POST",
      path: "/x",
      minRole: "member",
      params: () => ({ id: mine.id }),
    },
    {
      name: "GET /monitors/{id}/checks",
      handler: listChecks,
      method: "GET",
      path: "/x",
      minRole: "viewer",
      params: () => ({ id: mine.id }),
    },
    {
      name: "POST /monitors/{id}/links",
      handler: addLink,
      method: "POST",
      path: "/x",
      minRole: "member",
      body: () => ({ target: `https://new.example/${randomUUID()}` }),
      params: () => ({ id: mine.id }),
    },
    { name: "GET /links", handler: listLinks, method: "GET", path: "/api/account/links", minRole: "viewer" },
    {
      name: "GET /links/{id}",
      handler: getLink,
      method: "GET",
      path: "/x",
      minRole: "viewer",
      params: () => ({ id: mine.links[0]?.id ?? "" }),
    },
    {
      name: "PATCH /links/{id}",
      handler: patchLink,
      method: "PATCH",
      path: "/x",
      minRole: "member",
      body: () => ({ notes: "checked by hand" }),
      params: () => ({ id: mine.links[0]?.id ?? "" }),
    },
    {
      name: "DELETE /links/{id}",
      handler: deleteLink,
      method: "DELETE",
      path: "/x",
      minRole: "member",
      params: () => ({ id: deletableLinks.pop() ?? "none" }),
    },
    {
      name: "GET /links/{id}/history",
      handler: linkHistory,
      method: "GET",
      path: "/x",
      minRole: "viewer",
      params: () => ({ id: mine.links[0]?.id ?? "" }),
    },
    {
      name: "GET /links/export",
      handler: exportLinks,
      method: "GET",
      path: "/api/account/links/export?format=json",
      minRole: "member",
    },
    {
      name: "POST /audits/{id}/track",
      handler: track,
      method: "POST",
      path: "/x",
      minRole: "member",
      body: () => ({ position: 1 }),
      params: () => ({ id: myAuditId }),
    },
  ];

  describe("guard", () => {
    // The import's body is CSV: its guard order is checked here (steps 1–3 answer before any body is
    // read), its role boundary below with a real CSV body.
    itChecksGuardOrder(
      [
        ...ROUTES,
        {
          name: "POST /links/import",
          handler: importLinks,
          method: "POST",
          path: "/api/account/links/import",
          minRole: "member",
        },
      ],
      () => team,
    );
    itHintsAccountRequests(
      [
        ...ROUTES,
        {
          name: "POST /links/import",
          handler: importLinks,
          method: "POST",
          path: "/api/account/links/import",
          minRole: "member",
        },
      ],
      () => team,
    );
    itFindsIdsBeforeBodies(
      [
        ...ROUTES,
        {
          name: "POST /links/import",
          handler: importLinks,
          method: "POST",
          path: "/api/account/links/import",
          minRole: "member",
        },
      ],
      () => team,
    );
    itEnforcesRoles(
      ROUTES.filter((route) => route.name !== "POST /audits/{id}/track"),
      () => team,
    );

    it("POST /audits/{id}/track: a viewer is 403; a member tracks the link (201), the second time is 409", async () => {
      expectError(
        await call(track, "POST", "/x", {
          cookie: team.viewer.cookie,
          params: { id: myAuditId },
          body: { position: 1 },
        }),
        403,
        "FORBIDDEN",
      );
      const first = await call(track, "POST", "/x", {
        cookie: team.member.cookie,
        params: { id: myAuditId },
        body: { position: 1 },
      });
      expect(first.status, first.text).toBe(201);
      expectError(
        await call(track, "POST", "/x", {
          cookie: team.admin.cookie,
          params: { id: myAuditId },
          body: { position: 1 },
        }),
        409,
        "CONFLICT",
      );
    });

    it("POST /links/import: a viewer is 403 before the body is read; a member imports", async () => {
      const csv = `page_url,target_url\n${uniqueUrl()},https://mysite.example/\n`;
      const refused = await importLinks(csvRequest("/api/account/links/import", team.viewer.cookie, csv), {
        params: Promise.resolve({}),
      });
      expect(refused.status).toBe(403);
      const accepted = await importLinks(csvRequest("/api/account/links/import", team.member.cookie, csv), {
        params: Promise.resolve({}),
      });
      expect(accepted.status, await accepted.clone().text()).toBe(200);
    });
  });

  describe("tenant isolation: another organization's ids are 404 on every route", () => {
    it("every route with an id answers 404 for the other organization's monitor, link and audit", async () => {
      const as = { cookie: team.owner.cookie };
      const foreignMonitor = { id: theirs.id };
      const foreignLink = { id: theirs.links[0]?.id ?? "" };
      expectError(await call(getMonitor, "GET", "/x", { ...as, params: foreignMonitor }), 404, "NOT_FOUND");
      expectError(
        await call(patchMonitor, "PATCH", "/x", { ...as, params: foreignMonitor, body: { paused: true } }),
        404,
        "NOT_FOUND",
      );
      expectError(await call(deleteMonitor, "DELETE", "/x", { ...as, params: foreignMonitor }), 404, "NOT_FOUND");
      expectError(await call(checkNow, "POST", "/x", { ...as, params: foreignMonitor }), 404, "NOT_FOUND");
      expectError(await call(listChecks, "GET", "/x", { ...as, params: foreignMonitor }), 404, "NOT_FOUND");
      expectError(
        await call(addLink, "POST", "/x", { ...as, params: foreignMonitor, body: { target: "https://x.example/" } }),
        404,
        "NOT_FOUND",
      );
      expectError(await call(getLink, "GET", "/x", { ...as, params: foreignLink }), 404, "NOT_FOUND");
      expectError(
        await call(patchLink, "PATCH", "/x", { ...as, params: foreignLink, body: { notes: "mine now" } }),
        404,
        "NOT_FOUND",
      );
      expectError(await call(deleteLink, "DELETE", "/x", { ...as, params: foreignLink }), 404, "NOT_FOUND");
      expectError(await call(linkHistory, "GET", "/x", { ...as, params: foreignLink }), 404, "NOT_FOUND");
      expectError(
        await call(track, "POST", "/x", { ...as, params: { id: theirAuditId }, body: { position: 1 } }),
        404,
        "NOT_FOUND",
      );
      for (const [handler, method] of [
        [getMonitor, "GET"],
        [getLink, "GET"],
        [checkNow, "POST"],
      ] as const) {
        expectError(await call(handler, method, "/x", { ...as, params: { id: "no-such-id" } }), 404, "NOT_FOUND");
      }
      // Filters by a foreign monitor find nothing, lists and exports show only the active organization.
      const filtered = await call(listLinks, "GET", `/api/account/links?monitorId=${theirs.id}`, as);
      expect(json<{ items: unknown[] }>(filtered).items).toEqual([]);
      const all = await call(listMonitors, "GET", "/api/account/monitors?limit=100", as);
      expect(JSON.stringify(all.json)).not.toContain("their.example");
      const exported = await download(exportLinks, "/api/account/links/export?format=csv", team.owner.cookie);
      expect(exported.text).not.toContain("their.example");
      // The other organization's rows are untouched.
      const theirsNow = await call(getMonitor, "GET", "/x", { cookie: other.owner.cookie, params: foreignMonitor });
      expect(json<MonitorJson>(theirsNow).links[0]?.notes).toBeNull();
      expect(json<MonitorJson>(theirsNow).paused).toBe(false);
    });
  });

  describe("monitors", () => {
    it("POST answers 201 with the exact shape: due at once, pending, default interval, normalized URL and targets", async () => {
      const before = Date.now();
      const created = await monitorOf(team, {
        url: `${site.url("/placement")}?a=1#section`,
        tags: ["  vendors ", "vendors", "2026"],
        links: [
          { target: "Mysite.Example" },
          {
            target: "https://mysite.example/pricing#plans",
            expectedRel: "follow",
            expectedAnchor: " Best tool ",
            notes: "paid",
            cost: 120.5,
            expiresOn: "2027-01-31",
          },
          { target: "https://mysite.example/blog/", match: "prefix" },
        ],
      });
      expect(created.url).toBe(`${site.url("/placement")}?a=1`);
      expect(created.intervalMinutes).toBe(1440);
      expect(created.status).toBe("pending");
      expect(created.paused).toBe(false);
      expect(created.page).toBeNull();
      expect(created.lastCheckedAt).toBeNull();
      expect(created.consecutivePageErrors).toBe(0);
      expect(new Date(created.nextCheckAt).getTime()).toBeGreaterThanOrEqual(before - 5);
      expect(new Date(created.nextCheckAt).getTime()).toBeLessThanOrEqual(Date.now());
      expect(created.tags).toEqual(["vendors", "2026"]);
      expect(created.links.map((l) => [l.target, l.match, l.state, l.source])).toEqual([
        ["https://mysite.example/", "domain", "pending", "manual"],
        ["https://mysite.example/pricing", "exact", "pending", "manual"],
        ["https://mysite.example/blog/", "prefix", "pending", "manual"],
      ]);
      expect(created.links[1]).toMatchObject({
        expectedRel: "follow",
        expectedAnchor: "Best tool",
        notes: "paid",
        cost: 120.5,
        expiresOn: "2027-01-31",
        current: null,
        firstSeenAt: null,
        lastSeenAt: null,
        monitorId: created.id,
      });
      const read = await call(getMonitor, "GET", "/x", { cookie: team.viewer.cookie, params: { id: created.id } });
      expect(read.json).toEqual(created);
    });

    it.each([
      [{ url: "http://localhost/admin" }, 400, "INVALID_URL", /^url: /],
      [{ url: "not a url" }, 400, "INVALID_URL", /^url: /],
      [{ url: "https://example.com/a", intervalMinutes: 30 }, 400, "INVALID_REQUEST", /^intervalMinutes: /],
      [{ url: "https://example.com/a", intervalMinutes: 60 }, 400, "INVALID_REQUEST", /^intervalMinutes: .*360/],
      [
        { url: "https://example.com/a", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        400,
        "INVALID_REQUEST",
        /^tags: /,
      ],
      [{ url: "https://example.com/a", tags: ["x".repeat(51)] }, 400, "INVALID_REQUEST", /^tags\.0: /],
      [{ url: "https://example.com/a", tags: ["   "] }, 400, "INVALID_REQUEST", /^tags\.0: /],
      [{ url: "https://example.com/a", extra: 1 }, 400, "INVALID_REQUEST", /extra/],
      [
        { url: "https://example.com/a", links: [{ target: "mailto:me@example.com" }] },
        400,
        "INVALID_REQUEST",
        /^links\.0\.target: /,
      ],
      [
        { url: "https://example.com/a", links: [{ target: "https://x.example/", expectedRel: "dofollow" }] },
        400,
        "INVALID_REQUEST",
        /^links\.0\.expectedRel: /,
      ],
      [
        { url: "https://example.com/a", links: [{ target: "https://x.example/", expiresOn: "2026-02-30" }] },
        400,
        "INVALID_REQUEST",
        /^links\.0\.expiresOn: /,
      ],
      [
        { url: "https://example.com/a", links: [{ target: "https://x.example/", cost: -1 }] },
        400,
        "INVALID_REQUEST",
        /^links\.0\.cost: /,
      ],
      [
        {
          url: "https://example.com/a",
          links: [{ target: "https://x.example/a" }, { target: "https://x.example/a#frag" }],
        },
        409,
        "CONFLICT",
        /already tracked/,
      ],
    ])("POST %j → %i %s", async (body, status, code, message) => {
      const result = await call(createMonitor, "POST", "/api/account/monitors", { cookie: team.member.cookie, body });
      expectError(result, status, code);
      expect(String(result.json?.error)).toMatch(message);
    });

    it("one monitor per URL per organization (409), but another organization may monitor the same URL", async () => {
      const url = uniqueUrl();
      await monitorOf(team, { url });
      expectError(
        await call(createMonitor, "POST", "/x", { cookie: team.member.cookie, body: { url: `${url}#again` } }),
        409,
        "CONFLICT",
      );
      await monitorOf(other, { url });
    });

    it("PATCH changes interval, tags and pause; resuming makes the monitor due at once", async () => {
      const created = await monitorOf(team, { url: uniqueUrl() });
      await database.db
        .update(monitor)
        .set({ nextCheckAt: new Date(Date.now() + 86_400_000) })
        .where(eq(monitor.id, created.id));
      const paused = await call(patchMonitor, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: created.id },
        body: { paused: true, intervalMinutes: 10080, tags: ["a", " a ", "b"] },
      });
      expect(paused.status, paused.text).toBe(200);
      expectMonitorShape(paused.json);
      expect(paused.json).toMatchObject({ paused: true, intervalMinutes: 10080, tags: ["a", "b"] });
      const resumed = await call(patchMonitor, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: created.id },
        body: { paused: false },
      });
      expect(Math.abs(new Date(json<MonitorJson>(resumed).nextCheckAt).getTime() - Date.now())).toBeLessThan(5_000);
      expectError(
        await call(patchMonitor, "PATCH", "/x", {
          cookie: team.member.cookie,
          params: { id: created.id },
          body: { intervalMinutes: 60 },
        }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(patchMonitor, "PATCH", "/x", {
          cookie: team.member.cookie,
          params: { id: created.id },
          body: { url: "https://x.example/" },
        }),
        400,
        "INVALID_REQUEST",
      );
    });

    it("lists newest first in pages of one, each item a Monitor with its links", async () => {
      const all = json<{ items: MonitorJson[] }>(
        await call(listMonitors, "GET", "/x?limit=100", { cookie: team.viewer.cookie }),
      );
      expect(all.items.length).toBeGreaterThan(3);
      all.items.forEach((item) => expectMonitorShape(item));
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: MonitorJson[]; nextCursor: string | null } = json(
          await call(listMonitors, "GET", `/x?limit=1${cursor ? `&cursor=${cursor}` : ""}`, {
            cookie: team.viewer.cookie,
          }),
        );
        walked.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor;
      } while (cursor && walked.length <= all.items.length);
      expect(walked).toEqual(all.items.map((item) => item.id));
    });

    it("DELETE is 204, the monitor and its links are gone, and the audit log says who deleted what", async () => {
      const created = await monitorOf(team, { url: uniqueUrl(), links: [{ target: "https://gone.example/" }] });
      const result = await call(deleteMonitor, "DELETE", "/x", {
        cookie: team.member.cookie,
        params: { id: created.id },
      });
      expect(result.status).toBe(204);
      expect(result.text).toBe("");
      expectError(
        await call(getMonitor, "GET", "/x", { cookie: team.member.cookie, params: { id: created.id } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(getLink, "GET", "/x", { cookie: team.member.cookie, params: { id: created.links[0]?.id ?? "" } }),
        404,
        "NOT_FOUND",
      );
      const log = json<{ items: Array<{ action: string; target: { id: string } | null; actor: { email: string } }> }>(
        await call(auditLog, "GET", "/x?limit=100", { cookie: team.owner.cookie }),
      );
      const entry = log.items.find((item) => item.action === "monitor.delete" && item.target?.id === created.id);
      expect(entry?.actor.email).toBe(team.member.email);
    });
  });

  describe("tracked links", () => {
    it("POST /monitors/{id}/links answers 201 TrackedLink; the same target again is 409; the page becomes due", async () => {
      const created = await monitorOf(team, { url: uniqueUrl() });
      await database.db
        .update(monitor)
        .set({ nextCheckAt: new Date(Date.now() + 86_400_000) })
        .where(eq(monitor.id, created.id));
      const added = await call(addLink, "POST", "/x", {
        cookie: team.member.cookie,
        params: { id: created.id },
        body: { target: "https://mysite.example/review?ref=1", expectedAnchor: "Great review" },
      });
      expect(added.status, added.text).toBe(201);
      expectLinkShape(added.json);
      expect(added.json).toMatchObject({
        target: "https://mysite.example/review?ref=1",
        match: "exact",
        state: "pending",
        source: "manual",
        expectedAnchor: "Great review",
        expectedRel: null,
        monitorId: created.id,
      });
      expectError(
        await call(addLink, "POST", "/x", {
          cookie: team.member.cookie,
          params: { id: created.id },
          body: { target: "https://mysite.example/review?ref=1#x" },
        }),
        409,
        "CONFLICT",
      );
      expectError(
        await call(addLink, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id }, body: {} }),
        400,
        "INVALID_REQUEST",
      );
      const read = json<MonitorJson>(
        await call(getMonitor, "GET", "/x", { cookie: team.member.cookie, params: { id: created.id } }),
      );
      expect(new Date(read.nextCheckAt).getTime()).toBeLessThanOrEqual(Date.now());
    });

    it("PATCH changes expectations in place; a new target resets the link to pending, recorded in its history", async () => {
      const created = await monitorOf(team, {
        url: uniqueUrl(),
        links: [{ target: "https://mysite.example/a" }, { target: "https://mysite.example/b" }],
      });
      const [first, second] = created.links as [TrackedLinkJson, TrackedLinkJson];
      const seen = {
        href: "https://mysite.example/a",
        position: 1,
        linkType: "external" as const,
        anchorText: "A",
        isNofollow: false,
        isSponsored: false,
        isUgc: false,
        isImage: false,
        httpStatus: 200,
        matchedGroupName: null,
      };
      await database.db
        .update(trackedLink)
        .set({ state: "live", current: seen, firstSeenAt: new Date(), lastSeenAt: new Date() })
        .where(eq(trackedLink.id, first.id));
      const notes = await call(patchLink, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: first.id },
        body: { notes: "renewed", cost: 80, expectedRel: "sponsored", expiresOn: null },
      });
      expect(notes.status, notes.text).toBe(200);
      expect(notes.json).toMatchObject({
        state: "live",
        notes: "renewed",
        cost: 80,
        expectedRel: "sponsored",
        current: seen,
      });
      expectError(
        await call(patchLink, "PATCH", "/x", {
          cookie: team.member.cookie,
          params: { id: first.id },
          body: { target: second.target },
        }),
        409,
        "CONFLICT",
      );
      const moved = await call(patchLink, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: first.id },
        body: { target: "https://mysite.example/c" },
      });
      expect(moved.json).toMatchObject({
        target: "https://mysite.example/c",
        match: "exact",
        state: "pending",
        current: null,
        firstSeenAt: null,
        lastSeenAt: null,
        notes: "renewed",
      });
      const history = json<{ items: Array<Record<string, unknown>> }>(
        await call(linkHistory, "GET", "/x", { cookie: team.viewer.cookie, params: { id: first.id } }),
      );
      expect(history.items).toHaveLength(1);
      expect(Object.keys(history.items[0] ?? {}).sort()).toEqual([
        "after",
        "before",
        "checkId",
        "createdAt",
        "fromState",
        "id",
        "toState",
        "trackedLinkId",
      ]);
      expect(history.items[0]).toMatchObject({
        fromState: "live",
        toState: "pending",
        checkId: null,
        before: { state: "live", link: seen },
        after: { state: "pending", link: null },
      });
      const domain = await call(patchLink, "PATCH", "/x", {
        cookie: team.member.cookie,
        params: { id: second.id },
        body: { match: "domain" },
      });
      expect(domain.json).toMatchObject({ target: "https://mysite.example/b", match: "domain" });
    });

    it("GET /links filters by state, tag, monitorId and q (target, page, notes, anchors) and pages", async () => {
      const tagged = await monitorOf(team, {
        url: `https://filters.example/${randomUUID()}`,
        tags: ["filter-tag"],
        links: [
          { target: "https://alpha.example/x", notes: "Renewal in MARCH" },
          { target: "https://beta.example/y", expectedAnchor: "Cheap Widgets" },
        ],
      });
      const beta = tagged.links[1] as TrackedLinkJson;
      await database.db.update(trackedLink).set({ state: "missing" }).where(eq(trackedLink.id, beta.id));
      const list = async (query: string) =>
        json<{ items: TrackedLinkJson[] }>(
          await call(listLinks, "GET", `/api/account/links?${query}`, { cookie: team.viewer.cookie }),
        ).items.map((item) => item.target);
      expect(await list("tag=filter-tag")).toEqual(["https://beta.example/y", "https://alpha.example/x"]);
      expect(await list(`monitorId=${tagged.id}&state=missing`)).toEqual(["https://beta.example/y"]);
      expect(await list("q=march")).toEqual(["https://alpha.example/x"]);
      expect(await list("q=cheap%20widgets")).toEqual(["https://beta.example/y"]);
      expect(await list(`q=${encodeURIComponent("filters.example")}&state=pending`)).toEqual([
        "https://alpha.example/x",
      ]);
      expect(await list("q=100%25")).toEqual([]);
      expectError(
        await call(listLinks, "GET", "/api/account/links?state=gone", { cookie: team.viewer.cookie }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(listLinks, "GET", "/api/account/links?sort=x", { cookie: team.viewer.cookie }),
        400,
        "INVALID_REQUEST",
      );
      const page = json<{ items: TrackedLinkJson[]; nextCursor: string | null }>(
        await call(listLinks, "GET", "/api/account/links?limit=1&tag=filter-tag", { cookie: team.viewer.cookie }),
      );
      expect(page.items).toHaveLength(1);
      const next = json<{ items: TrackedLinkJson[]; nextCursor: string | null }>(
        await call(listLinks, "GET", `/api/account/links?limit=1&tag=filter-tag&cursor=${page.nextCursor}`, {
          cookie: team.viewer.cookie,
        }),
      );
      expect(next.items.map((item) => item.target)).toEqual(["https://alpha.example/x"]);
      expect(next.nextCursor).toBeNull();
    });

    it("DELETE /links/{id} is 204 and audit-logged", async () => {
      const id = deletableLinks.pop() ?? "";
      const result = await call(deleteLink, "DELETE", "/x", { cookie: team.member.cookie, params: { id } });
      expect(result.status).toBe(204);
      expectError(await call(getLink, "GET", "/x", { cookie: team.member.cookie, params: { id } }), 404, "NOT_FOUND");
      const log = json<{ items: Array<{ action: string; target: { id: string } | null }> }>(
        await call(auditLog, "GET", "/x?limit=100", { cookie: team.owner.cookie }),
      );
      expect(log.items.some((item) => item.action === "tracked_link.delete" && item.target?.id === id)).toBe(true);
    });

    it("POST /audits/{id}/track: the audit's page monitor is found or created; exact match on the href, its rel expected", async () => {
      const auditId = await savedAudit(team.organizationId, "https://review.example/post");
      const result = await call(track, "POST", "/x", {
        cookie: team.member.cookie,
        params: { id: auditId },
        body: { position: 2 },
      });
      expect(result.status, result.text).toBe(201);
      expectLinkShape(result.json);
      expect(result.json).toMatchObject({
        target: "https://partner.example/offer",
        match: "exact",
        expectedRel: "sponsored",
        expectedAnchor: null,
        source: "audit",
        state: "pending",
      });
      const page = json<MonitorJson>(
        await call(getMonitor, "GET", "/x", {
          cookie: team.member.cookie,
          params: { id: json<TrackedLinkJson>(result).monitorId },
        }),
      );
      expect(page.url).toBe("https://review.example/post");
      const again = await call(track, "POST", "/x", {
        cookie: team.member.cookie,
        params: { id: auditId },
        body: { position: 1 },
      });
      expect(json<TrackedLinkJson>(again).monitorId).toBe(page.id);
      expectError(
        await call(track, "POST", "/x", { cookie: team.member.cookie, params: { id: auditId }, body: { position: 3 } }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(track, "POST", "/x", { cookie: team.member.cookie, params: { id: auditId }, body: { position: 9 } }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(track, "POST", "/x", {
          cookie: team.member.cookie,
          params: { id: auditId },
          body: { position: "2" },
        }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(track, "POST", "/x", { cookie: team.member.cookie, params: { id: auditId }, body: { position: 2 } }),
        409,
        "CONFLICT",
      );
      expectError(
        await call(track, "POST", "/x", {
          cookie: team.member.cookie,
          params: { id: "no-such-audit" },
          body: { position: 2 },
        }),
        404,
        "NOT_FOUND",
      );
    });
  });

  describe("CSV import and export", () => {
    const upload = async (csv: string | Uint8Array, query = "", cookie = team.member.cookie, contentType?: string) => {
      const response = await importLinks(csvRequest(`/api/account/links/import${query}`, cookie, csv, contentType), {
        params: Promise.resolve({}),
      });
      const text = await response.text();
      return { status: response.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
    };
    const base = `https://import-${backend}.example`;

    it("dry run validates only; the import creates monitors and links, reports every bad row by number, and a second import is all unchanged", async () => {
      const csv = [
        "page_url,target_url,match,expected_anchor,expected_rel,tags,expires_on,cost,notes",
        `${base}/a,https://mysite.example/pricing,,Best tool,follow,guest|2026,2027-01-31,120.50,"paid, renewed"`,
        `${base}/a,mysite.example,,,,vendors;guest,,,`,
        `${base}/b,https://mysite.example/,exact,,sponsored,,,,"line one`,
        `line two"`,
        `http://localhost/x,https://mysite.example/,,,,,,,`,
        `${base}/c,ftp://mysite.example/,,,,,,,`,
        `${base}/c,https://mysite.example/x,fuzzy,,,,,,`,
        `${base}/c,https://mysite.example/x,,,dofollow,,,,`,
        `${base}/c,https://mysite.example/x,,,,,2026-13-01,,`,
        `${base}/c,https://mysite.example/x,,,,,,-5,`,
        `${base}/c,https://mysite.example/x,,,,,,,,extra`,
        ``,
        `${base}/a,https://mysite.example/pricing#again,,,,,,,`,
        `${base}/d,https://exa mple.com/,,,,,,,`,
      ].join("\r\n");
      const dry = await upload(csv, "?dryRun=1");
      expect(dry.status, dry.text).toBe(200);
      expect(Object.keys(dry.json ?? {}).sort()).toEqual(["created", "errors", "unchanged", "updated"]);
      const rows = (dry.json?.errors as Array<{ row: number; message: string }>).map((error) => [
        error.row,
        error.message.split(":")[0],
      ]);
      expect(rows).toEqual([
        // Row 4 is one record over two lines (a quoted line break); rows are records, as a spreadsheet shows them.
        [5, "page_url"],
        [6, "target_url"],
        [7, "match"],
        [8, "expected_rel"],
        [9, "expires_on"],
        [10, "cost"],
        [11, "expected 9 cells like the header, found 10."],
        [13, "the same page_url and target_url as row 2."],
        [14, "target_url"],
      ]);
      expect(dry.json).toMatchObject({ created: 3, updated: 0, unchanged: 0 });
      const listed = async () =>
        json<{ items: TrackedLinkJson[] }>(
          await call(listLinks, "GET", `/api/account/links?q=${encodeURIComponent(base)}&limit=100`, {
            cookie: team.member.cookie,
          }),
        ).items;
      expect(await listed()).toEqual([]);

      const real = await upload(csv);
      expect(real.json).toEqual(dry.json);
      const links = await listed();
      expect(links.map((link) => [link.target, link.match, link.source]).sort()).toEqual([
        ["https://mysite.example/", "domain", "import"],
        ["https://mysite.example/", "exact", "import"],
        ["https://mysite.example/pricing", "exact", "import"],
      ]);
      const pricing = links.find((link) => link.target.endsWith("/pricing"));
      expect(pricing).toMatchObject({
        expectedAnchor: "Best tool",
        expectedRel: "follow",
        expiresOn: "2027-01-31",
        cost: 120.5,
        notes: "paid, renewed",
        state: "pending",
      });
      const multiline = links.find((link) => link.match === "exact" && link.target === "https://mysite.example/");
      expect(multiline?.notes).toBe("line one\nline two");
      const pageA = json<MonitorJson>(
        await call(getMonitor, "GET", "/x", { cookie: team.member.cookie, params: { id: pricing?.monitorId ?? "" } }),
      );
      expect(pageA).toMatchObject({
        url: `${base}/a`,
        intervalMinutes: 1440,
        tags: ["guest", "2026", "vendors"],
        status: "pending",
      });

      const again = await upload(csv);
      expect(again.json).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
      expect((again.json?.errors as unknown[]).length).toBe(9);

      const changed = await upload(
        `page_url,target_url,notes,tags\n${base}/a,https://mysite.example/pricing,new note,\n${base}/a,mysite.example,,extra-tag\n${base}/b,https://mysite.example/,"line one\nline two",\n`,
      );
      expect(changed.json).toMatchObject({ created: 0, updated: 2, unchanged: 1, errors: [] });
      const log = json<{ items: Array<{ action: string; details: Record<string, unknown> }> }>(
        await call(auditLog, "GET", "/x?limit=100", { cookie: team.owner.cookie }),
      );
      const imports = log.items.filter((item) => item.action === "tracked_links.import");
      expect(imports[0]?.details).toMatchObject({ created: 0, updated: 2, unchanged: 1, errors: 0 });
      expect(imports.length).toBeGreaterThanOrEqual(3);
    });

    it.each([
      ["no header", "", 400, "INVALID_REQUEST"],
      ["an unknown column", "page_url,target_url,price\n", 400, "INVALID_REQUEST"],
      ["no target_url column", "page_url,notes\n", 400, "INVALID_REQUEST"],
      ["an unclosed quote", 'page_url,target_url\nhttps://x.example/,"https://y.example/\n', 400, "INVALID_REQUEST"],
    ])("a file with %s is %i %s", async (_name, csv, status, code) => {
      const result = await upload(csv);
      expect(result.status, result.text).toBe(status);
      expect(result.json?.errorCode).toBe(code);
    });

    it("Content-Type other than text/csv is 400; over 5,000 rows or 5 MiB is 413", async () => {
      const wrongType = await upload("page_url,target_url\n", "", team.member.cookie, "application/json");
      expect(wrongType.status).toBe(400);
      const rows = Array.from({ length: 5001 }, (_, i) => `https://rows.example/${i},https://mysite.example/`);
      const tooMany = await upload(`page_url,target_url\n${rows.join("\n")}\n`);
      expect(tooMany.status, tooMany.text).toBe(413);
      expect(tooMany.json?.errorCode).toBe("PAYLOAD_TOO_LARGE");
      const big = new Uint8Array(5 * 1024 * 1024 + 10).fill(97);
      const tooBig = await upload(big);
      expect(tooBig.status).toBe(413);
      const badQuery = await upload("page_url,target_url\n", "?dry=1");
      expect(badQuery.status).toBe(400);
    });

    it("5,000 rows import in a few seconds, and the second import is all unchanged", async () => {
      const rows = Array.from(
        { length: 5000 },
        (_, i) =>
          `https://bulk-${backend}.example/post-${Math.floor(i / 5)},https://mysite.example/p/${i},exact,Anchor ${i},follow,bulk,,${i % 50},note ${i}`,
      );
      const csv = `page_url,target_url,match,expected_anchor,expected_rel,tags,expires_on,cost,notes\n${rows.join("\n")}\n`;
      const started = performance.now();
      const first = await upload(csv);
      const firstMs = performance.now() - started;
      expect(first.json).toMatchObject({ created: 5000, updated: 0, unchanged: 0, errors: [] });
      const again = performance.now();
      const second = await upload(csv);
      const secondMs = performance.now() - again;
      expect(second.json).toMatchObject({ created: 0, updated: 0, unchanged: 5000, errors: [] });
      console.log(
        `[${backend}] import of 5,000 rows (1,000 pages): ${Math.round(firstMs)} ms; again (all unchanged): ${Math.round(secondMs)} ms`,
      );
      expect(firstMs).toBeLessThan(30_000);
    });

    it("export: CSV (RFC 4180, formula-safe, a download) and JSON; an export imports back as unchanged; audit-logged", async () => {
      const page = await monitorOf(team, {
        url: `https://export-${backend}.example/post`,
        tags: ["exp", "2026"],
        links: [
          {
            target: "https://mysite.example/e1",
            expectedAnchor: "=cmd|' /C calc'!A0",
            notes: '+1 "quoted", comma',
            cost: 9.99,
          },
          { target: "https://mysite.example/e2", expectedAnchor: "@handle", expiresOn: "2026-12-31" },
        ],
      });
      const csv = await download(
        exportLinks,
        `/api/account/links/export?format=csv&monitorId=${page.id}`,
        team.member.cookie,
      );
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(csv.headers.get("content-disposition")).toMatch(
        /^attachment; filename="linklens-links-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = csv.text.split("\r\n");
      expect(lines[0]).toBe(
        "page_url,target_url,match,expected_anchor,expected_rel,tags,expires_on,cost,notes,state,first_seen_at,last_seen_at,verdict,verdict_reasons,in_google_view,blocked_crawlers",
      );
      expect(lines[1]).toBe(
        `https://export-${backend}.example/post,https://mysite.example/e1,exact,'=cmd|' /C calc'!A0,,exp|2026,,9.99,"'+1 ""quoted"", comma",pending,,,,,,`,
      );
      expect(lines[2]).toBe(
        `https://export-${backend}.example/post,https://mysite.example/e2,exact,'@handle,,exp|2026,2026-12-31,,,pending,,,,,,`,
      );
      expect(lines[3]).toBe("");
      const back = await upload(csv.text);
      expect(back.json).toEqual({ created: 0, updated: 0, unchanged: 2, errors: [] });
      const jsonExport = await download(
        exportLinks,
        `/api/account/links/export?format=json&monitorId=${page.id}`,
        team.member.cookie,
      );
      expect(jsonExport.headers.get("content-disposition")).toMatch(/\.json"$/);
      expect(JSON.parse(jsonExport.text)).toEqual([
        {
          page_url: page.url,
          target_url: "https://mysite.example/e1",
          match: "exact",
          expected_anchor: "=cmd|' /C calc'!A0",
          expected_rel: null,
          tags: "exp|2026",
          expires_on: null,
          cost: 9.99,
          notes: '+1 "quoted", comma',
          state: "pending",
          first_seen_at: null,
          last_seen_at: null,
          verdict: null,
          verdict_reasons: null,
          in_google_view: null,
          blocked_crawlers: null,
        },
        {
          page_url: page.url,
          target_url: "https://mysite.example/e2",
          match: "exact",
          expected_anchor: "@handle",
          expected_rel: null,
          tags: "exp|2026",
          expires_on: "2026-12-31",
          cost: null,
          notes: null,
          state: "pending",
          first_seen_at: null,
          last_seen_at: null,
          verdict: null,
          verdict_reasons: null,
          in_google_view: null,
          blocked_crawlers: null,
        },
      ]);
      expectError(
        await call(exportLinks, "GET", "/api/account/links/export?format=xml", { cookie: team.member.cookie }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(exportLinks, "GET", "/api/account/links/export", { cookie: team.viewer.cookie }),
        403,
        "FORBIDDEN",
      );
      const log = json<{ items: Array<{ action: string; details: Record<string, unknown> }> }>(
        await call(auditLog, "GET", "/x?limit=100", { cookie: team.owner.cookie }),
      );
      expect(log.items.find((item) => item.action === "tracked_links.export")?.details).toMatchObject({
        format: "json",
        links: 2,
      });
    });
  });
});
