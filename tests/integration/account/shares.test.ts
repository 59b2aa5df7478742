import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { GET as listShares, POST as createShare } from "@/app/api/account/shares/route";
import { DELETE as revokeShare } from "@/app/api/account/shares/[id]/route";
import type { Database } from "@/lib/db";
import { activityLog, audit, auditLink, share, trackedLink } from "@/lib/db/schema";
import { SHARE_PAGE_SIZE, ShareReportSchema, type LinksReport, type AuditReport } from "@/lib/schemas/share-report";
import { exportReport, REPORT_CSV_COLUMNS } from "@/lib/shares/export";
import { openShare } from "@/lib/shares/open";
import { buildReport, reportPageExists } from "@/lib/shares/report";
import { BACKENDS, call, closeAll, ORIGIN, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itEnforcesRoles,
  itFindsIdsBeforeBodies,
  itHintsAccountRequests,
  type RouteCase,
} from "./guard-cases";
import { at, insertLinkWithHistory, insertMonitor } from "./history-setup";
import { makeTeam, type Team } from "./team-setup";

/**
 * Client reports (evidence-and-reports.md "Client reports (share links)"): creating, listing and
 * revoking share links (roles, validation, tenant isolation, the audit log, the token stored hashed and
 * shown once), and what a token opens: the report's rows without private fields, 5,000 links in pages,
 * the CSV, and 404 for every token that opens nothing. Both backends. The page itself over HTTP:
 * tests/integration/share-page.test.ts.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

afterAll(async () => {
  await closeAll();
});

const SHARE_KEYS = [
  "id",
  "title",
  "scope",
  "tag",
  "monitorId",
  "auditId",
  "createdAt",
  "createdBy",
  "expiresAt",
  "revokedAt",
  "schedule",
];
const CREATED_KEYS = [
  "id",
  "title",
  "scope",
  "tag",
  "monitorId",
  "auditId",
  "url",
  "createdAt",
  "createdBy",
  "expiresAt",
  "revokedAt",
  "schedule",
];
const BULK = 5_000;

interface ShareJson {
  id: string;
  url: string;
  title: string;
  scope: string;
  tag: string | null;
  monitorId: string | null;
  auditId: string | null;
  createdAt: string;
  createdBy: { id: string | null; email: string };
  expiresAt: string | null;
  revokedAt: string | null;
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

describe.each(BACKENDS)("share links (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;
  let pageId = "";
  let theirPageId = "";
  let auditId = "";
  let theirAuditId = "";
  let revocable = "";
  const linkIds: string[] = [];
  const runtime = () => ({ db: database.db, now: () => new Date() });

  async function savedAudit(organizationId: string, url: string): Promise<string> {
    const id = randomUUID();
    await database.db.insert(audit).values({
      id,
      organizationId,
      createdByEmail: "auditor@example.com",
      mode: "url",
      requestedUrl: url,
      url,
      domain: new URL(url).hostname,
      title: "A review",
      stats: {
        total: 3,
        internal: 1,
        external: 1,
        ignored: 1,
        follow: 1,
        nofollow: 1,
        sponsored: 1,
        ugc: 0,
        broken: 0,
      },
      snapshotGzip: Buffer.from(""),
    });
    const base = {
      auditId: id,
      isNofollow: false,
      isSponsored: false,
      isUgc: false,
      isImage: false,
      httpStatus: 200,
      matchedGroupName: null,
    };
    await database.db.insert(auditLink).values([
      { ...base, position: 1, href: `${new URL(url).origin}/about`, linkType: "internal", anchorText: "About" },
      {
        ...base,
        position: 2,
        href: "https://partner.example/offer",
        linkType: "external",
        anchorText: '=HYPERLINK("https://evil.example","click")',
        isSponsored: true,
        isNofollow: true,
        inRawHtml: false,
        hidden: true,
        region: "footer" as const,
      },
      { ...base, position: 3, href: "javascript:alert(1)", linkType: "ignored", anchorText: "-2+3", httpStatus: null },
    ]);
    return id;
  }

  async function create(body: Record<string, unknown>, cookie = team.admin.cookie) {
    return call(createShare, "POST", "/api/account/shares", { cookie, body });
  }
  async function created(body: Record<string, unknown>): Promise<ShareJson> {
    const result = await create(body);
    expect(result.status, result.text).toBe(201);
    return result.json as unknown as ShareJson;
  }

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `s-${backend}`);
    other = await makeTeam(database, `so-${backend}`);
    pageId = await insertMonitor(database, team.organizationId, {
      url: "https://blog.example/guest-post",
      tags: ["client acme"],
      lastCheckedAt: at(0, 1),
    });
    for (const [index, steps] of [
      [{ at: at(5), to: "live" as const }],
      [
        { at: at(4), to: "live" as const },
        { at: at(1), to: "missing" as const },
      ],
      [],
    ].entries()) {
      linkIds.push(
        await insertLinkWithHistory(database, team.organizationId, pageId, at(6 - index), steps, {
          notes: "SECRET NOTE: paid via invoice 42",
          cost: 999.5,
          target: `https://mysite.example/landing-${index}`,
        }),
      );
    }
    // Verdicts as checks leave them (placement-verdict.md); the third link was never found (null).
    await database.db
      .update(trackedLink)
      .set({ verdict: { value: "counts", reasons: [] } })
      .where(eq(trackedLink.id, linkIds[0]!));
    await database.db
      .update(trackedLink)
      .set({ verdict: { value: "does_not_count", reasons: ["missing", "nofollow"] } })
      .where(eq(trackedLink.id, linkIds[1]!));
    theirPageId = await insertMonitor(database, other.organizationId, {
      url: "https://their.example/post",
      tags: ["client acme"],
    });
    await insertLinkWithHistory(database, other.organizationId, theirPageId, at(3), [], {
      target: "https://their-site.example/x",
    });
    auditId = await savedAudit(team.organizationId, "https://review.example/post");
    theirAuditId = await savedAudit(other.organizationId, "https://their.example/review");
    // 5,000 tracked links on 50 pages with the tag "bulk".
    const bulkPages = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        insertMonitor(database, team.organizationId, {
          url: `https://bulk.example/page-${String(index).padStart(2, "0")}`,
          tags: ["bulk"],
        }),
      ),
    );
    const rows = Array.from({ length: BULK }, (_, index) => ({
      id: randomUUID(),
      organizationId: team.organizationId,
      monitorId: bulkPages[index % 50] as string,
      target: `https://mysite.example/bulk-${String(index).padStart(4, "0")}`,
      match: "exact" as const,
      source: "import" as const,
      state: index % 10 === 0 ? ("missing" as const) : ("live" as const),
      createdAt: at(30),
    }));
    for (let start = 0; start < rows.length; start += 1_000)
      await database.db.insert(trackedLink).values(rows.slice(start, start + 1_000));
    revocable = (await created({ title: "To revoke", scope: "tag", tag: "client acme" })).id;
  });

  const ROUTES: RouteCase[] = [
    { name: "GET /shares", handler: listShares, method: "GET", path: "/api/account/shares", minRole: "viewer" },
    {
      name: "POST /shares",
      handler: createShare,
      method: "POST",
      path: "/api/account/shares",
      minRole: "admin",
      body: () => ({ title: "Guard", scope: "monitor", monitorId: pageId }),
    },
    // Revoking twice is a 204 again, so each allowed role can revoke the same share.
    {
      name: "DELETE /shares/{id}",
      handler: revokeShare,
      method: "DELETE",
      path: "/x",
      minRole: "admin",
      params: () => ({ id: revocable }),
    },
  ];
  describe("guard", () => {
    itChecksGuardOrder(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
    itHintsAccountRequests(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
  });

  describe("POST /api/account/shares", () => {
    it("answers 201 with the share and, this once, its URL; only the token's SHA-256 is stored", async () => {
      const before = Date.now();
      const answer = await created({
        title: "  Acme: guest posts  ",
        scope: "tag",
        tag: "client acme",
        expiresAt: "2099-01-01T00:00:00+02:00",
      });
      expect(Object.keys(answer)).toEqual(CREATED_KEYS);
      expect(answer).toMatchObject({
        title: "Acme: guest posts",
        scope: "tag",
        tag: "client acme",
        monitorId: null,
        auditId: null,
        revokedAt: null,
        expiresAt: "2098-12-31T22:00:00.000Z",
      });
      expect(answer.createdBy).toEqual({ id: team.admin.userId, email: team.admin.email });
      expect(Date.parse(answer.createdAt)).toBeGreaterThanOrEqual(before - 5);
      expect(answer.url).toMatch(new RegExp(`^${ORIGIN}/r/[A-Za-z0-9_-]{32}$`));
      const token = tokenOf(answer.url);
      const [row] = await database.db.select().from(share).where(eq(share.id, answer.id));
      expect(row?.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
      expect(JSON.stringify(row)).not.toContain(token);
      // Two shares of the same thing get different tokens.
      const again = await created({ title: "Acme again", scope: "tag", tag: "client acme" });
      expect(tokenOf(again.url)).not.toBe(token);
    });

    it("shares a monitor and an audit of the organization", async () => {
      const page = await created({
        title: "One page",
        scope: "monitor",
        monitorId: pageId,
        tag: null,
        auditId: null,
        expiresAt: null,
      });
      expect(page).toMatchObject({ scope: "monitor", monitorId: pageId, tag: null, auditId: null, expiresAt: null });
      const saved = await created({ title: "The audit", scope: "audit", auditId });
      expect(saved).toMatchObject({ scope: "audit", auditId, monitorId: null, tag: null });
    });

    it("is in the audit log as share.created, without the token", async () => {
      const answer = await created({ title: "Logged", scope: "monitor", monitorId: pageId });
      const [entry] = await database.db.select().from(activityLog).where(eq(activityLog.targetId, answer.id));
      expect(entry).toMatchObject({
        action: "share.created",
        actorEmail: team.admin.email,
        targetType: "share",
        organizationId: team.organizationId,
      });
      expect(entry?.details).toMatchObject({ title: "Logged", scope: "monitor", monitorId: pageId });
      expect(JSON.stringify(entry)).not.toContain(tokenOf(answer.url));
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ["no title", { scope: "tag", tag: "client acme" }, /title/],
      ["a blank title", { title: "   ", scope: "tag", tag: "client acme" }, /title/],
      ["a title over 200 characters", { title: "x".repeat(201), scope: "tag", tag: "client acme" }, /title/],
      ["a title with a line break", { title: "a\nb", scope: "tag", tag: "client acme" }, /title/],
      ["an unknown scope", { title: "t", scope: "page", monitorId: "x" }, /scope/],
      ["no scope", { title: "t", tag: "client acme" }, /scope/],
      ["a tag scope without its tag", { title: "t", scope: "tag" }, /tag/],
      ["a monitor scope with a tag too", { title: "t", scope: "monitor", monitorId: "x", tag: "client acme" }, /tag/],
      ["an audit scope without auditId", { title: "t", scope: "audit", monitorId: "x" }, /auditId|monitorId/],
      [
        "an expiry that is not a time",
        { title: "t", scope: "tag", tag: "client acme", expiresAt: "tomorrow" },
        /expiresAt/,
      ],
      [
        "an expiry in the past",
        { title: "t", scope: "tag", tag: "client acme", expiresAt: "2020-01-01T00:00:00Z" },
        /expiresAt/,
      ],
      ["an unknown field", { title: "t", scope: "tag", tag: "client acme", token: "mine" }, /token/],
      ["a tag no monitor has", { title: "t", scope: "tag", tag: "client acm" }, /tag/],
      ["another organization's tag only", { title: "t", scope: "tag", tag: "their tag" }, /tag/],
    ])("%s is 400 INVALID_REQUEST naming the field", async (_name, body, field) => {
      const result = await create(body);
      expectError(result, 400, "INVALID_REQUEST");
      expect(String(result.json?.error)).toMatch(field);
    });

    it("another organization's monitor or audit, or an unknown one, is 404", async () => {
      expectError(await create({ title: "t", scope: "monitor", monitorId: theirPageId }), 404, "NOT_FOUND");
      expectError(await create({ title: "t", scope: "audit", auditId: theirAuditId }), 404, "NOT_FOUND");
      expectError(await create({ title: "t", scope: "monitor", monitorId: "no-such-monitor" }), 404, "NOT_FOUND");
      expectError(await create({ title: "t", scope: "audit", auditId: randomUUID() }), 404, "NOT_FOUND");
    });
  });

  describe("GET /api/account/shares and DELETE /api/account/shares/{id}", () => {
    it("lists the organization's shares newest first, never with a URL or token, a page at a time", async () => {
      const newest = await created({ title: "Newest", scope: "audit", auditId });
      const theirs = await call(createShare, "POST", "/api/account/shares", {
        cookie: other.owner.cookie,
        body: { title: "Theirs", scope: "monitor", monitorId: theirPageId },
      });
      expect(theirs.status).toBe(201);
      const result = await call(listShares, "GET", "/api/account/shares?limit=100", { cookie: team.viewer.cookie });
      expect(result.status).toBe(200);
      const items = (result.json as { items: ShareJson[] }).items;
      expect(items[0]?.id).toBe(newest.id);
      for (const item of items) expect(Object.keys(item)).toEqual(SHARE_KEYS);
      expect(result.text).not.toContain("/r/");
      expect(result.text).not.toContain("Theirs");
      const first = await call(listShares, "GET", "/api/account/shares?limit=1", { cookie: team.viewer.cookie });
      const cursor = (first.json as { nextCursor: string }).nextCursor;
      expect(cursor).toEqual(expect.any(String));
      const second = await call(listShares, "GET", `/api/account/shares?limit=1&cursor=${encodeURIComponent(cursor)}`, {
        cookie: team.viewer.cookie,
      });
      expect((second.json as { items: ShareJson[] }).items[0]?.id).toBe(items[1]?.id);
    });

    it("revokes (204, revokedAt set, logged once); the token opens nothing from then on", async () => {
      const answer = await created({ title: "Short-lived", scope: "monitor", monitorId: pageId });
      expect(await openShare(runtime(), tokenOf(answer.url))).not.toBeNull();
      const result = await call(revokeShare, "DELETE", "/x", { cookie: team.owner.cookie, params: { id: answer.id } });
      expect(result.status).toBe(204);
      expect(result.text).toBe("");
      expect(await openShare(runtime(), tokenOf(answer.url))).toBeNull();
      expect(
        (await call(revokeShare, "DELETE", "/x", { cookie: team.admin.cookie, params: { id: answer.id } })).status,
      ).toBe(204);
      const list = (await call(listShares, "GET", "/api/account/shares?limit=100", { cookie: team.viewer.cookie }))
        .json as { items: ShareJson[] };
      expect(list.items.find((item) => item.id === answer.id)?.revokedAt).toEqual(expect.any(String));
      const entries = await database.db.select().from(activityLog).where(eq(activityLog.targetId, answer.id));
      expect(entries.map((entry) => entry.action).sort()).toEqual(["share.created", "share.revoked"]);
      expect(entries.find((entry) => entry.action === "share.revoked")?.actorEmail).toBe(team.owner.email);
    });

    it("another organization's share id, or an unknown one, is 404 and stays active", async () => {
      const theirs = (
        await call(createShare, "POST", "/api/account/shares", {
          cookie: other.owner.cookie,
          body: { title: "Theirs", scope: "monitor", monitorId: theirPageId },
        })
      ).json as unknown as ShareJson;
      expectError(
        await call(revokeShare, "DELETE", "/x", { cookie: team.owner.cookie, params: { id: theirs.id } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(revokeShare, "DELETE", "/x", { cookie: team.owner.cookie, params: { id: "no-such-share" } }),
        404,
        "NOT_FOUND",
      );
      expect(await openShare(runtime(), tokenOf(theirs.url))).not.toBeNull();
    });
  });

  describe("what a token opens", () => {
    it("a tag report: the organization's links with that tag, page by page, and nothing private", async () => {
      const answer = await created({ title: "Acme report", scope: "tag", tag: "client acme" });
      const opened = await openShare(runtime(), tokenOf(answer.url));
      expect(opened?.organizationName).toBe(`s-${backend}-owner's team`);
      const report = (await buildReport(runtime(), opened!, 1)) as LinksReport;
      expect(ShareReportSchema.parse(report)).toEqual(report);
      expect(report).toMatchObject({
        kind: "links",
        scope: "tag",
        subject: "client acme",
        title: "Acme report",
        page: 1,
        pages: 1,
        total: 3,
      });
      expect(report.states).toEqual({
        pending: 1,
        live: 1,
        missing: 1,
        broken: 0,
        rel_mismatch: 0,
        anchor_mismatch: 0,
      });
      expect(report.links.map((link) => [link.pageUrl, link.target, link.state, link.verdict])).toEqual([
        [
          "https://blog.example/guest-post",
          "https://mysite.example/landing-0",
          "live",
          { value: "counts", reasons: [] },
        ],
        [
          "https://blog.example/guest-post",
          "https://mysite.example/landing-1",
          "missing",
          { value: "does_not_count", reasons: ["missing", "nofollow"] },
        ],
        ["https://blog.example/guest-post", "https://mysite.example/landing-2", "pending", null],
      ]);
      expect(report.links[0]?.uptime.days).toHaveLength(90);
      expect(report.links[0]?.uptime.livePercent).toBe(100);
      expect(report.links[0]?.lastCheckedAt).toBe(at(0, 1).toISOString());
      const text = JSON.stringify(report);
      for (const secret of [
        "SECRET NOTE",
        "999.5",
        "@example.com",
        pageId,
        team.organizationId,
        ...linkIds,
        "their.example",
        "their-site",
      ])
        expect(text).not.toContain(secret);
      expect(await buildReport(runtime(), opened!, 2)).toBeNull();
    });

    it("a monitor report names its page; an audit report has the audit's stats and links, no snapshot, no author", async () => {
      const page = await openShare(
        runtime(),
        tokenOf((await created({ title: "Page", scope: "monitor", monitorId: pageId })).url),
      );
      expect(await buildReport(runtime(), page!, 1)).toMatchObject({
        kind: "links",
        scope: "monitor",
        subject: "https://blog.example/guest-post",
        total: 3,
      });
      const saved = await openShare(
        runtime(),
        tokenOf((await created({ title: "Audit", scope: "audit", auditId })).url),
      );
      const report = (await buildReport(runtime(), saved!, 1)) as AuditReport;
      expect(report).toMatchObject({
        kind: "audit",
        subject: "https://review.example/post",
        total: 3,
        pages: 1,
        audit: { url: "https://review.example/post", pageTitle: "A review" },
      });
      expect(report.links.map((link) => link.position)).toEqual([1, 2, 3]);
      expect(report.links.map((link) => link.signals)).toEqual([
        { inRawHtml: null, hidden: null, region: null, inGoogleView: null },
        { inRawHtml: false, hidden: true, region: "footer", inGoogleView: null },
        { inRawHtml: null, hidden: null, region: null, inGoogleView: null },
      ]);
      expect(JSON.stringify(report)).not.toContain("auditor@example.com");
      expect(JSON.stringify(report)).not.toContain("sanitizedHtml");
    });

    it(`a tag of ${BULK.toLocaleString("en-US")} links comes in pages of ${SHARE_PAGE_SIZE}, every link once, in page order`, async () => {
      const bulkToken = tokenOf((await created({ title: "Bulk", scope: "tag", tag: "bulk" })).url);
      const opened = await openShare(runtime(), bulkToken);
      const first = (await buildReport(runtime(), opened!, 1)) as LinksReport;
      expect(first).toMatchObject({ total: BULK, pages: BULK / SHARE_PAGE_SIZE, page: 1 });
      expect(first.states).toMatchObject({ live: 4_500, missing: 500 });
      expect(first.links).toHaveLength(SHARE_PAGE_SIZE);
      expect(first.links.every((link) => link.pageUrl === "https://bulk.example/page-00")).toBe(true);
      const last = (await buildReport(runtime(), opened!, 50)) as LinksReport;
      expect(last.links).toHaveLength(SHARE_PAGE_SIZE);
      expect(last.links.every((link) => link.pageUrl === "https://bulk.example/page-49")).toBe(true);
      expect(await buildReport(runtime(), opened!, 51)).toBeNull();
      // What the production server asks before the page renders, to answer 404 for no report.
      const token = bulkToken;
      for (const [page, exists] of [
        [null, true],
        ["1", true],
        ["50", true],
        ["51", false],
        ["0", false],
        ["-1", false],
        ["1.5", false],
        ["abc", false],
        [["1", "2"], false],
      ] as const) {
        expect(await reportPageExists(runtime(), token, page as string | string[] | null), String(page)).toBe(exists);
      }
      expect(await reportPageExists(runtime(), token.slice(1), null)).toBe(false);
      const file = await exportReport(runtime(), opened!);
      const csv = await new Response(file!.body).text();
      const lines = csv.split("\r\n").filter(Boolean);
      expect(lines[0]).toBe(REPORT_CSV_COLUMNS.join(","));
      expect(lines).toHaveLength(BULK + 1);
      expect(new Set(lines.slice(1).map((line) => line.split(",")[1])).size).toBe(BULK);
      expect(file!.filename).toMatch(/^linklens-report-bulk-\d{4}-\d{2}-\d{2}\.csv$/);
    });

    it("the CSV of a tag report has the report's rows; an audit's CSV is formula-safe", async () => {
      const tag = await openShare(
        runtime(),
        tokenOf((await created({ title: "Acme CSV", scope: "tag", tag: "client acme" })).url),
      );
      const csv = await new Response((await exportReport(runtime(), tag!))!.body).text();
      expect(csv.split("\r\n").slice(0, 2)).toEqual([
        REPORT_CSV_COLUMNS.join(","),
        `https://blog.example/guest-post,https://mysite.example/landing-0,exact,live,counts,,${at(0, 1).toISOString()},100`,
      ]);
      expect(csv).toContain(`https://mysite.example/landing-1,exact,missing,does_not_count,missing;nofollow,`);
      expect(csv).not.toContain("SECRET");
      const saved = await openShare(
        runtime(),
        tokenOf((await created({ title: "Audit CSV", scope: "audit", auditId })).url),
      );
      const auditCsv = await new Response((await exportReport(runtime(), saved!))!.body).text();
      expect(auditCsv).toContain(`"'=HYPERLINK(""https://evil.example"",""click"")"`);
      expect(auditCsv).toContain(",'-2+3,");
      expect(auditCsv.split("\r\n")[0]).toBe(
        "position,href,linkType,anchorText,isNofollow,isSponsored,isUgc,isImage,httpStatus,matchedGroupName,inRawHtml,hidden,region,inGoogleView",
      );
    });

    it("a guessed, truncated, extended, altered, expired or revoked token opens nothing", async () => {
      const answer = await created({ title: "Probe", scope: "tag", tag: "client acme" });
      const token = tokenOf(answer.url);
      const flipped = `${token.slice(0, 10)}${token[10] === "A" ? "B" : "A"}${token.slice(11)}`;
      for (const probe of [
        token.slice(0, -1),
        `${token}A`,
        `${token}=`,
        ` ${token}`,
        flipped,
        token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase(),
        "A".repeat(32),
        "",
        "%00",
        createHash("sha256").update(token).digest("hex"),
      ]) {
        expect(await openShare(runtime(), probe), probe).toBeNull();
      }
      expect(await openShare(runtime(), token)).not.toBeNull();
      await database.db
        .update(share)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(share.id, answer.id));
      expect(await openShare(runtime(), token)).toBeNull();
    });

    it("deleting the monitor or the audit deletes their shares", async () => {
      const page = await insertMonitor(database, team.organizationId, { url: "https://gone.example/post" });
      const answer = await created({ title: "Gone", scope: "monitor", monitorId: page });
      const { DELETE: deleteMonitor } = await import("@/app/api/account/monitors/[id]/route");
      expect(
        (await call(deleteMonitor, "DELETE", "/x", { cookie: team.member.cookie, params: { id: page } })).status,
      ).toBe(204);
      expect(await openShare(runtime(), tokenOf(answer.url))).toBeNull();
      expect(await database.db.select().from(share).where(eq(share.id, answer.id))).toEqual([]);
    });
  });
});
