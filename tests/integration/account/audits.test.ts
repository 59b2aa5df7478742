import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRAWLER_AGENTS } from "@/lib/schemas/crawlers";
import { GET as listAudits, POST as createAudit } from "@/app/api/account/audits/route";
import { GET as getAudit, DELETE as deleteAudit } from "@/app/api/account/audits/[id]/route";
import { POST as rerun } from "@/app/api/account/audits/[id]/rerun/route";
import { GET as compare } from "@/app/api/account/audits/[id]/compare/route";
import { GET as exportAudit } from "@/app/api/account/audits/[id]/export/route";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { auditLinkAt } from "@/lib/account/audit-links";
import { analyzeHtml, analyzeUrl, shutdownAnalyzer } from "@/lib/analyzer";
import { AuditComparisonSchema, AuditSchema, AuditSummarySchema, type Audit } from "@/lib/schemas/audits";
import { getConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { auditLink } from "@/lib/db/schema";
import { eq, sql } from "drizzle-orm";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itFindsIdsBeforeBodies,
  itHintsAccountRequests,
  itEnforcesRoles,
  type RouteCase,
} from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";
import { auditIds, newAudit, PAGE } from "./audit-setup";
import { parseStrictCsv } from "../../helpers/strict-csv";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
// The 5,000-link paste is analysed once; on a machine shared with other suites its worker can need more than the default 20 s.
process.env.ANALYSIS_TIMEOUT_MS = "60000";

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
  // Before anything reads the configuration: URL mode may fetch the local fixture site.
  process.env.ALLOW_PRIVATE_HOSTS = site.allowEntry;
});
afterAll(async () => {
  await shutdownAnalyzer();
  await closeAll();
  await site?.close();
});

const HEADER =
  "position,href,linkType,anchorText,isNofollow,isSponsored,isUgc,isImage,httpStatus,matchedGroupName,inRawHtml,hidden,region,inGoogleView";

/** The public Link fields of signed-in links (what the public analyzer answers). */
const publicLinks = <T extends { signals: unknown }>(links: T[]) => links.map(({ signals: _signals, ...link }) => link);
const paste = (html: string, domain = "example.com") => ({ html, domain });

/** Audits made in beforeAll: one to read, compare, re-run and export; a pool for DELETE. */
let subject = "";
let earlier = "";
const deletable: string[] = [];

const ROUTES: RouteCase[] = [
  { name: "GET /audits", handler: listAudits, method: "GET", path: "/api/account/audits", minRole: "viewer" },
  {
    name: "POST /audits",
    handler: createAudit,
    method: "POST",
    path: "/api/account/audits",
    minRole: "member",
    body: () => paste('<a href="https://example.org/">x</a>'),
  },
  {
    name: "GET /audits/{id}",
    handler: getAudit,
    method: "GET",
    path: "/api/account/audits/x?include=snapshot",
    minRole: "viewer",
    params: () => ({ id: subject }),
  },
  {
    name: "DELETE /audits/{id}",
    handler: deleteAudit,
    method: "DELETE",
    path: "/api/account/audits/x",
    minRole: "member",
    params: () => ({ id: deletable.pop() ?? "none-left" }),
  },
  {
    name: "POST /audits/{id}/rerun",
    handler: rerun,
    method: "POST",
    path: "/api/account/audits/x/rerun",
    minRole: "member",
    params: () => ({ id: subject }),
  },
  {
    name: "GET /audits/{id}/compare",
    handler: compare,
    method: "GET",
    // A getter: the earlier audit's id exists only once beforeAll has run.
    get path() {
      return `/api/account/audits/x/compare?with=${earlier}`;
    },
    minRole: "viewer",
    params: () => ({ id: subject }),
  },
  {
    name: "GET /audits/{id}/export (csv)",
    handler: exportAudit,
    method: "GET",
    path: "/api/account/audits/x/export?format=csv",
    minRole: "member",
    params: () => ({ id: subject }),
  },
  {
    name: "GET /audits/{id}/export (json)",
    handler: exportAudit,
    method: "GET",
    path: "/api/account/audits/x/export?format=json",
    minRole: "member",
    params: () => ({ id: subject }),
  },
];

describe.each(BACKENDS)("saved audits (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "a");
    other = await makeTeam(database, "o");
    earlier = (await newAudit(team.member.cookie, paste(PAGE, "mine.example"))).id;
    subject = (await newAudit(team.member.cookie, paste(PAGE.replace("Outsider", "Outsider, renamed"), "mine.example")))
      .id;
    deletable.length = 0;
    for (let i = 0; i < 10; i += 1)
      deletable.push((await newAudit(team.member.cookie, paste(`<a href="/n${i}">${i}</a>`, "delete.example"))).id);
    // Two teams' sign-ups (scrypt) and a dozen analyses: slow when other suites share the two cores.
  }, 420_000);

  describe("check order and roles", () => {
    itChecksGuardOrder(ROUTES, () => team);
    itHintsAccountRequests(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
  });

  describe("creating and reading", () => {
    it("paste mode: 201 with exactly the Audit fields; links and stats are the public analyzer's", async () => {
      const result = await call(createAudit, "POST", "/api/account/audits", {
        cookie: team.member.cookie,
        body: paste(PAGE, "Blog.Mine.Example"),
      });
      expect(result.status, result.text).toBe(201);
      expect(Object.keys(result.json ?? {}).sort()).toEqual([
        "createdAt",
        "createdBy",
        "domain",
        "id",
        "links",
        "mode",
        "page",
        "requestedUrl",
        "stats",
        "title",
        "url",
      ]);
      const audit = AuditSchema.parse(result.json);
      const plain = await analyzeHtml({ html: PAGE, pageUrl: "https://blog.mine.example/" }, { settings: getConfig() });
      expect(audit).toMatchObject({
        mode: "paste",
        url: "https://blog.mine.example/",
        requestedUrl: "https://blog.mine.example/",
        domain: "blog.mine.example",
        title: "Partner page",
        createdBy: { id: team.member.userId, email: team.member.email },
      });
      expect(publicLinks(audit.links)).toEqual(plain.links);
      // Paste mode: regions from the markup; nothing rendered or fetched, so inRawHtml and hidden are null.
      expect(audit.links.every((link) => link.signals.inRawHtml === null && link.signals.hidden === null)).toBe(true);
      expect(audit.page).toEqual({
        httpStatus: null,
        finalUrl: null,
        noindex: false,
        noindexSource: null,
        canonicalUrl: null,
        canonicalElsewhere: null,
        robotsTxt: null,
        crawlers: null,
        googleView: null,
      });
      expect(audit.stats).toEqual(plain.stats);
      expect(result.headers.get("x-ratelimit-limit")).toBe("500");
      const read = await call(getAudit, "GET", `/api/account/audits/${audit.id}`, {
        cookie: team.viewer.cookie,
        params: { id: audit.id },
      });
      expect(read.status, read.text).toBe(200);
      expect(AuditSchema.parse(read.json)).toEqual(audit);
      expect(read.json).not.toHaveProperty("sanitizedHtml");
    });

    it("?include=snapshot adds the sanitized snapshot; any other include (or query) is 400", async () => {
      const plain = await analyzeHtml({ html: PAGE, pageUrl: "https://mine.example/" }, { settings: getConfig() });
      const read = await call(getAudit, "GET", "/x?include=snapshot", {
        cookie: team.viewer.cookie,
        params: { id: earlier },
      });
      expect(read.status, read.text).toBe(200);
      expect(AuditSchema.parse(read.json).sanitizedHtml).toBe(plain.sanitizedHtml);
      expect(String(read.json?.sanitizedHtml)).toContain('data-linklens-position="2"');
      for (const query of ["?include=links", "?include=", "?include=snapshot,links", "?snapshot=1"]) {
        const bad = await call(getAudit, "GET", `/x${query}`, { cookie: team.viewer.cookie, params: { id: earlier } });
        expectError(bad, 400, "INVALID_REQUEST");
      }
      const named = await call(getAudit, "GET", "/x?include=links", {
        cookie: team.viewer.cookie,
        params: { id: earlier },
      });
      expect(named.json?.error).toMatch(/^include: /);
      // An unknown id is 404 before the query is looked at.
      expectError(
        await call(getAudit, "GET", "/x?include=links", { cookie: team.viewer.cookie, params: { id: "nope" } }),
        404,
        "NOT_FOUND",
      );
    });

    it("URL mode renders through the public render path: links agree with analyzeUrl, statuses checked, the title read", async () => {
      const audit = await newAudit(team.member.cookie, { url: site.url("/shop") });
      const plain = await analyzeUrl(new URL(site.url("/shop")), { settings: getConfig() });
      expect(audit).toMatchObject({
        mode: "url",
        requestedUrl: site.url("/shop"),
        url: plain.url,
        domain: "127.0.0.1",
      });
      expect(publicLinks(audit.links)).toEqual(plain.links);
      // URL mode: every link's signals; the page's (the fixture site's robots.txt lets Googlebot in).
      expect(audit.links.every((link) => link.signals.inRawHtml !== null && link.signals.hidden === false)).toBe(true);
      expect(audit.links.find((link) => link.href.endsWith("/shop/added-by-script"))?.signals).toEqual({
        inRawHtml: false,
        hidden: false,
        region: null,
        inGoogleView: true,
      });
      expect(audit.links.find((link) => link.href.endsWith("/shop/about"))?.signals).toEqual({
        inRawHtml: true,
        hidden: false,
        region: "nav",
        inGoogleView: true,
      });
      expect(audit.page).toEqual({
        httpStatus: 200,
        finalUrl: site.url("/shop"),
        noindex: false,
        noindexSource: null,
        canonicalUrl: null,
        canonicalElsewhere: false,
        robotsTxt: "allowed",
        // The fixture site's robots.txt keeps no crawler out of /shop (google-view.md §3).
        crawlers: Object.fromEntries(CRAWLER_AGENTS.map((agent) => [agent, "allowed"])),
        // Googlebot's render of the same page (google-view.md §2): every link the visitor has.
        googleView: expect.objectContaining({ status: "ok", httpStatus: 200, linkCount: audit.stats.total }),
      });
      expect(audit.stats).toEqual(plain.stats);
      expect(audit.links.find((l) => l.href.endsWith("/shop/missing"))?.httpStatus).toBe(404);
      expect(audit.stats.broken).toBeGreaterThan(0);
    });

    it("URL mode after redirects: url is the final URL, requestedUrl the one asked; ?url= finds it by either", async () => {
      const audit = await newAudit(team.member.cookie, { url: site.url("/chain/1") });
      expect(audit).toMatchObject({
        requestedUrl: site.url("/chain/1"),
        url: site.url("/chain/end"),
        title: "End of chain",
      });
      expect(audit.links).toEqual([
        expect.objectContaining({ href: site.url("/"), linkType: "internal", httpStatus: 200 }),
      ]);
      expect(await auditIds(team.viewer.cookie, `&url=${encodeURIComponent(site.url("/chain/end"))}`)).toEqual([
        audit.id,
      ]);
      expect(await auditIds(team.viewer.cookie, `&url=${encodeURIComponent(site.url("/chain/1"))}`)).toEqual([
        audit.id,
      ]);
      expect(await auditIds(team.viewer.cookie, `&url=${encodeURIComponent(site.url("/chain/2"))}`)).toEqual([]);
    });

    it("URL mode: a page that redirects to another scheme is 403 BLOCKED_REDIRECT, and no audit is saved", async () => {
      const before = await auditIds(team.viewer.cookie);
      for (const path of ["/redirect-to/gopher", "/redirect-to/ftp", "/redirect-to/data"]) {
        const refused = await call(createAudit, "POST", "/api/account/audits", {
          cookie: team.member.cookie,
          body: { url: site.url(path) },
        });
        expectError(refused, 403, "BLOCKED_REDIRECT");
      }
      expect(await auditIds(team.viewer.cookie)).toEqual(before);
    });

    it.each([
      [{}, 400, "INVALID_REQUEST"],
      [{ url: "https://example.com/", html: "<a>" }, 400, "INVALID_REQUEST"],
      [{ url: "http://localhost/" }, 400, "INVALID_URL"],
      [{ url: "ftp://example.com/" }, 400, "INVALID_URL"],
      [{ html: 5 }, 400, "INVALID_REQUEST"],
      [{ html: "<a>", domain: "https://x/" }, 400, "INVALID_REQUEST"],
      [{ html: "<a>", extra: true }, 400, "INVALID_REQUEST"],
    ])("POST %j → %i %s (nothing saved)", async (body, status, code) => {
      const before = await auditIds(team.viewer.cookie);
      expectError(await call(createAudit, "POST", "/x", { cookie: team.member.cookie, body }), status, code);
      expect(await auditIds(team.viewer.cookie)).toEqual(before);
    });

    it("html over MAX_HTML_BYTES is 413; a non-JSON body is 400", async () => {
      const big = "a".repeat(getConfig().MAX_HTML_BYTES + 1);
      expectError(
        await call(createAudit, "POST", "/x", { cookie: team.member.cookie, body: { html: big } }),
        413,
        "PAYLOAD_TOO_LARGE",
      );
      const raw = await createAudit(
        new Request("http://localhost:3000/api/account/audits", {
          method: "POST",
          headers: {
            cookie: team.member.cookie,
            origin: "http://localhost:3000",
            host: "localhost:3000",
            "content-type": "application/json",
          },
          body: "{not json",
        }),
        { params: Promise.resolve({}) },
      );
      expect(raw.status).toBe(400);
    });

    it("stores links as rows by (auditId, position), readable one at a time", async () => {
      const rows = await database.db.select().from(auditLink).where(eq(auditLink.auditId, earlier));
      expect(rows.map((r) => r.position).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
      const ctx = { organization: { id: team.organizationId } } as Parameters<typeof auditLinkAt>[1];
      expect(await auditLinkAt(database.db, ctx, earlier, 2)).toMatchObject({
        href: "https://shop.sister.example/p",
        isSponsored: true,
        position: 2,
      });
      expect(await auditLinkAt(database.db, ctx, earlier, 99)).toBeNull();
      const foreign = { organization: { id: other.organizationId } } as Parameters<typeof auditLinkAt>[1];
      expect(await auditLinkAt(database.db, foreign, earlier, 2)).toBeNull();
    });
  });

  describe("listing", () => {
    it("newest first, summaries only, keyset pages that walk every audit once", async () => {
      const all = await call(listAudits, "GET", "/x?limit=100", { cookie: team.viewer.cookie });
      const items = (all.json as { items: unknown[] }).items.map((item) => AuditSummarySchema.parse(item));
      expect(items.length).toBeGreaterThan(5);
      const times = items.map((item) => Date.parse(item.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(Object.keys((all.json as { items: object[] }).items[0] ?? {}).sort()).toEqual([
        "createdAt",
        "domain",
        "id",
        "mode",
        "stats",
        "title",
        "url",
      ]);
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await call(listAudits, "GET", `/x?limit=3${cursor ? `&cursor=${cursor}` : ""}`, {
          cookie: team.viewer.cookie,
        });
        const body = page.json as { items: Array<{ id: string }>; nextCursor: string | null };
        expect(body.items.length).toBeLessThanOrEqual(3);
        walked.push(...body.items.map((i) => i.id));
        cursor = body.nextCursor;
      } while (cursor && walked.length <= items.length);
      expect(walked).toEqual(items.map((i) => i.id));
    });

    it("?url= matches exactly (after URL serialization); combined with paging; unknown parameters are 400", async () => {
      const mine = await auditIds(team.viewer.cookie, "&url=https://mine.example/");
      expect(mine).toEqual(expect.arrayContaining([subject, earlier]));
      // Newest first (re-runs of the subject, from the role tests, are newer still).
      expect(mine.indexOf(subject)).toBeLessThan(mine.indexOf(earlier));
      expect(await auditIds(team.viewer.cookie, "&url=HTTPS://Mine.Example")).toEqual(mine);
      expect(await auditIds(team.viewer.cookie, "&url=https://mine.example/other")).toEqual([]);
      const first = await call(listAudits, "GET", "/x?limit=1&url=https://mine.example/", {
        cookie: team.viewer.cookie,
      });
      const next = (first.json as { nextCursor: string }).nextCursor;
      const second = await call(listAudits, "GET", `/x?limit=1&url=https://mine.example/&cursor=${next}`, {
        cookie: team.viewer.cookie,
      });
      expect((second.json as { items: Array<{ id: string }> }).items[0]?.id).toBe(mine[1]);
      expectError(
        await call(listAudits, "GET", "/x?domain=mine.example", { cookie: team.viewer.cookie }),
        400,
        "INVALID_REQUEST",
      );
      expectError(await call(listAudits, "GET", "/x?limit=0", { cookie: team.viewer.cookie }), 400, "INVALID_REQUEST");
      expectError(
        await call(listAudits, "GET", "/x?cursor=zzz", { cookie: team.viewer.cookie }),
        400,
        "INVALID_REQUEST",
      );
    });
  });

  it("?url= has an index for each side of its OR (the final URL, the requested URL), per organization", async () => {
    const result = (await database.db.execute(sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'audit'`)) as {
      rows: Array<{ indexdef: string }>;
    };
    const definitions = result.rows.map((row) => row.indexdef);
    expect(definitions).toContainEqual(expect.stringMatching(/\(organization_id, url\)$/));
    expect(definitions).toContainEqual(expect.stringMatching(/\(organization_id, requested_url\)$/));
  });

  describe("re-run and delete", () => {
    it("a paste re-run analyses the stored HTML again as a new audit; the original is unchanged", async () => {
      const original = AuditSchema.parse(
        (await call(getAudit, "GET", "/x", { cookie: team.viewer.cookie, params: { id: earlier } })).json,
      );
      const result = await call(rerun, "POST", "/x", { cookie: team.member.cookie, params: { id: earlier } });
      expect(result.status, result.text).toBe(201);
      const again = AuditSchema.parse(result.json);
      expect(again.id).not.toBe(earlier);
      expect(again).toMatchObject({
        mode: "paste",
        url: original.url,
        requestedUrl: original.requestedUrl,
        domain: original.domain,
        title: original.title,
        links: original.links,
        stats: original.stats,
      });
      expect(
        AuditSchema.parse(
          (await call(getAudit, "GET", "/x", { cookie: team.viewer.cookie, params: { id: earlier } })).json,
        ),
      ).toEqual(original);
      expect(result.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    });

    it("a URL re-run renders the requested URL again", async () => {
      const first = await newAudit(team.member.cookie, { url: site.url("/chain/1") });
      const hits = site.hits("/chain/1");
      const result = await call(rerun, "POST", "/x", { cookie: team.member.cookie, params: { id: first.id } });
      expect(result.status, result.text).toBe(201);
      // The visitor's render and Googlebot's (google-view.md §2: a URL audit renders Google's view once).
      expect(site.hits("/chain/1")).toBe(hits + 2);
      expect(AuditSchema.parse(result.json)).toMatchObject({
        requestedUrl: first.requestedUrl,
        url: first.url,
        links: first.links,
      });
    });

    it("DELETE is 204 with no body; the audit and its links are gone; a second DELETE is 404", async () => {
      const audit = await newAudit(team.member.cookie, paste('<a href="/a">a</a><a href="/b">b</a>'));
      const deleted = await call(deleteAudit, "DELETE", "/x", { cookie: team.member.cookie, params: { id: audit.id } });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe("");
      expectError(
        await call(getAudit, "GET", "/x", { cookie: team.viewer.cookie, params: { id: audit.id } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(deleteAudit, "DELETE", "/x", { cookie: team.member.cookie, params: { id: audit.id } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(rerun, "POST", "/x", { cookie: team.member.cookie, params: { id: audit.id } }),
        404,
        "NOT_FOUND",
      );
      expect(await database.db.select().from(auditLink).where(eq(auditLink.auditId, audit.id))).toEqual([]);
    });
  });

  describe("compare", () => {
    it("added, removed and changed links between two audits of a page, duplicates paired in order", async () => {
      const before = await newAudit(
        team.member.cookie,
        paste(
          `<a href="/same">Same</a><a href="/dup">first</a><a href="/dup" rel="nofollow">second</a><a href="/gone">Gone</a><a href="https://x.example/" rel="sponsored">Ad</a>`,
          "compare.example",
        ),
      );
      const after = await newAudit(
        team.member.cookie,
        paste(
          `<a href="/new">New</a><a href="/same">Same</a><a href="/dup">first</a><a href="/dup">second</a><a href="/dup">third</a><a href="https://x.example/">Ad, now followed</a>`,
          "compare.example",
        ),
      );
      const result = await call(compare, "GET", `/x?with=${before.id}`, {
        cookie: team.viewer.cookie,
        params: { id: after.id },
      });
      expect(result.status, result.text).toBe(200);
      const diff = AuditComparisonSchema.parse(result.json);
      const base = "https://compare.example";
      expect(diff.added.map((l) => [l.href, l.position])).toEqual([
        [`${base}/new`, 1],
        [`${base}/dup`, 5],
      ]);
      expect(diff.removed.map((l) => [l.href, l.position])).toEqual([[`${base}/gone`, 4]]);
      expect(diff.changed.map((c) => [c.href, c.fields, c.before.position, c.after.position])).toEqual([
        [`${base}/dup`, ["isNofollow"], 3, 4],
        ["https://x.example/", ["anchorText", "isSponsored"], 5, 6],
      ]);
      // /same moved from position 1 to 2: not a change.
      expect(diff.changed.some((c) => c.href === `${base}/same`)).toBe(false);
      // Swapped roles: what was added is now removed.
      const reverse = AuditComparisonSchema.parse(
        (await call(compare, "GET", `/x?with=${after.id}`, { cookie: team.viewer.cookie, params: { id: before.id } }))
          .json,
      );
      expect(reverse.removed.map((l) => l.href)).toEqual(diff.added.map((l) => l.href));
      expect(reverse.added.map((l) => l.href)).toEqual(diff.removed.map((l) => l.href));
    });

    it("a missing or bad ?with= is 400; an unknown or foreign id on either side is 404", async () => {
      const missing = await call(compare, "GET", "/x", { cookie: team.viewer.cookie, params: { id: subject } });
      expectError(missing, 400, "INVALID_REQUEST");
      expect(missing.json?.error).toMatch(/^with: /);
      expectError(
        await call(compare, "GET", "/x?with=", { cookie: team.viewer.cookie, params: { id: subject } }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(compare, "GET", `/x?with=${earlier}&extra=1`, {
          cookie: team.viewer.cookie,
          params: { id: subject },
        }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(compare, "GET", "/x?with=nope", { cookie: team.viewer.cookie, params: { id: subject } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(compare, "GET", `/x?with=${earlier}`, { cookie: team.viewer.cookie, params: { id: "nope" } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(compare, "GET", "/x", { cookie: team.viewer.cookie, params: { id: "nope" } }),
        404,
        "NOT_FOUND",
      );
    });
  });

  describe("export", () => {
    it("CSV: a streamed attachment, RFC 4180 with the exact header, one row per link as GET returns it, formulas defused", async () => {
      const html = `<a href="/p" rel="nofollow ugc">=HYPERLINK("http://evil.example","click")</a>
<a href="https://shop.sister.example/"><img src="x.png" alt="+1 deal, &quot;today&quot;"></a>
<a href="mailto:a@b.example">-minus</a><a href="/at">@mention</a><a href="/multi">line one
line two</a><a href="/tab">\tTabbed</a>`;
      const audit = await newAudit(team.member.cookie, paste(html, "csv.example"));
      const result = await call(exportAudit, "GET", "/x?format=csv", {
        cookie: team.member.cookie,
        params: { id: audit.id },
      });
      expect(result.status, result.text).toBe(200);
      expect(result.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(result.headers.get("content-disposition")).toMatch(
        /^attachment; filename="linklens-audit-csv\.example-\d{8}-\d{6}Z\.csv"$/,
      );
      expect(result.text.startsWith(`${HEADER}\r\n`)).toBe(true);
      const records = parseStrictCsv(result.text);
      expect(records[0]?.join(",")).toBe(HEADER);
      const rows = records.slice(1);
      expect(rows).toHaveLength(audit.links.length);
      const cell = (value: unknown) => {
        if (value === null || value === undefined) return "";
        const text = String(value);
        return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
      };
      expect(rows).toEqual(
        audit.links.map((l) =>
          [
            l.position,
            l.href,
            l.linkType,
            l.anchorText,
            l.isNofollow,
            l.isSponsored,
            l.isUgc,
            l.isImage,
            l.httpStatus,
            l.matchedGroupName,
            l.signals.inRawHtml,
            l.signals.hidden,
            l.signals.region,
            l.signals.inGoogleView,
          ].map(cell),
        ),
      );
      expect(rows.map((r) => r[3])).toEqual([
        `'=HYPERLINK("http://evil.example","click")`,
        `'+1 deal, "today"`,
        "'-minus",
        "'@mention",
        "line one line two",
        "Tabbed",
      ]);
      expect(rows[0]?.slice(4, 10)).toEqual(["true", "false", "true", "false", "", ""]);
      expect(rows[1]?.[7]).toBe("true");
    });

    it("JSON: the Audit as GET answers it, as an attachment", async () => {
      const result = await call(exportAudit, "GET", "/x?format=json", {
        cookie: team.member.cookie,
        params: { id: subject },
      });
      expect(result.status, result.text).toBe(200);
      expect(result.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(result.headers.get("content-disposition")).toMatch(
        /^attachment; filename="linklens-audit-mine\.example-\d{8}-\d{6}Z\.json"$/,
      );
      const read = await call(getAudit, "GET", "/x", { cookie: team.viewer.cookie, params: { id: subject } });
      expect(AuditSchema.parse(result.json)).toEqual(read.json);
      const empty = await newAudit(team.member.cookie, paste("<p>no links</p>", "empty.example"));
      const emptyExport = await call(exportAudit, "GET", "/x?format=json", {
        cookie: team.member.cookie,
        params: { id: empty.id },
      });
      expect(AuditSchema.parse(emptyExport.json).links).toEqual([]);
      const emptyCsv = await call(exportAudit, "GET", "/x?format=csv", {
        cookie: team.member.cookie,
        params: { id: empty.id },
      });
      expect(emptyCsv.text).toBe(`${HEADER}\r\n`);
    });

    it("a missing or unknown format is 400 naming it; every export is in the audit log with its format", async () => {
      for (const query of ["", "?format=xml", "?format=csv&x=1"]) {
        const bad = await call(exportAudit, "GET", `/x${query}`, {
          cookie: team.member.cookie,
          params: { id: subject },
        });
        expectError(bad, 400, "INVALID_REQUEST");
      }
      expect(
        (await call(exportAudit, "GET", "/x?format=xml", { cookie: team.member.cookie, params: { id: subject } })).json
          ?.error,
      ).toMatch(/^format: /);
      const log = await call(auditLog, "GET", "/x?limit=100", { cookie: team.owner.cookie });
      const items = (
        log.json as {
          items: Array<{
            action: string;
            actor: { email: string };
            target: { id: string } | null;
            details: Record<string, unknown>;
          }>;
        }
      ).items;
      const exports = items.filter((i) => i.action === "audit.export" && i.target?.id === subject);
      expect(exports.map((e) => e.details.format)).toEqual(expect.arrayContaining(["csv", "json"]));
      expect(exports.every((e) => e.details.url === "https://mine.example/")).toBe(true);
      const actions = new Set(items.map((i) => i.action));
      expect(actions).toContain("audit.create");
      expect(actions).toContain("audit.delete");
      expect(items.find((i) => i.action === "audit.create" && i.details.rerunOf === earlier)).toBeDefined();
    });

    it("streams a 5,000-link audit in well under a second, in order, every link once", async () => {
      const html = Array.from(
        { length: 5_000 },
        (_, i) => `<a href="/p/${i}" rel="${i % 3 === 0 ? "nofollow" : ""}">Link "${i}", with text</a>`,
      ).join("\n");
      const audit = await newAudit(team.member.cookie, paste(html, "big.example"));
      expect(audit.links).toHaveLength(5_000);
      for (const format of ["csv", "json"] as const) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const response = await exportAudit(
          new Request(`http://localhost:3000/api/account/audits/${audit.id}/export?format=${format}`, {
            headers: { cookie: team.member.cookie, host: "localhost:3000" },
          }),
          { params: Promise.resolve({ id: audit.id }) },
        );
        let chunks = 0;
        let text = "";
        const decoder = new TextDecoder();
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks += 1;
          text += decoder.decode(value, { stream: true });
        }
        const ms = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMs = (cpu.user + cpu.system) / 1000;
        console.log(
          `export of 5,000 links as ${format} (${backend}): ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU, ${(text.length / 1024).toFixed(0)} KiB in ${chunks} chunks`,
        );
        // The budget is checked on this process's CPU time (with PGlite that includes the database):
        // wall time on two cores shared with other suites says more about them than about the export.
        // Unloaded, wall time is 0.1–0.5 s (docs/account-api.md); the wall bound only catches a hang.
        expect(cpuMs).toBeLessThan(1_000);
        expect(ms).toBeLessThan(5_000);
        // Streamed in batches, not one buffer.
        expect(chunks).toBeGreaterThanOrEqual(5);
        if (format === "csv") {
          const rows = parseStrictCsv(text).slice(1);
          expect(rows.map((r) => Number(r[0]))).toEqual(Array.from({ length: 5_000 }, (_, i) => i + 1));
          expect(rows[4_999]?.[3]).toBe('Link "4999", with text');
        } else {
          expect(AuditSchema.parse(JSON.parse(text)).links).toEqual(audit.links);
        }
      }
    });
  });

  describe("tenant isolation", () => {
    it("another organization's audit ids are 404 on every route; its audits never show in the list", async () => {
      const theirs = await newAudit(other.member.cookie, paste(PAGE, "mine.example"));
      const asOwner = { cookie: team.owner.cookie, params: { id: theirs.id } };
      expectError(await call(getAudit, "GET", "/x", asOwner), 404, "NOT_FOUND");
      expectError(await call(getAudit, "GET", "/x?include=snapshot", asOwner), 404, "NOT_FOUND");
      expectError(await call(deleteAudit, "DELETE", "/x", asOwner), 404, "NOT_FOUND");
      expectError(await call(rerun, "POST", "/x", asOwner), 404, "NOT_FOUND");
      expectError(await call(exportAudit, "GET", "/x?format=csv", asOwner), 404, "NOT_FOUND");
      expectError(await call(exportAudit, "GET", "/x?format=json", asOwner), 404, "NOT_FOUND");
      expectError(await call(compare, "GET", `/x?with=${subject}`, asOwner), 404, "NOT_FOUND");
      expectError(
        await call(compare, "GET", `/x?with=${theirs.id}`, { cookie: team.owner.cookie, params: { id: subject } }),
        404,
        "NOT_FOUND",
      );
      // Lists and the ?url= filter see only the active organization's audits.
      expect(await auditIds(team.owner.cookie)).not.toContain(theirs.id);
      expect(await auditIds(team.owner.cookie, "&url=https://mine.example/")).not.toContain(theirs.id);
      expect(await auditIds(other.viewer.cookie)).toEqual([theirs.id]);
      // Their audit is still there after our attempts.
      expect(
        (await call(getAudit, "GET", "/x", { cookie: other.viewer.cookie, params: { id: theirs.id } })).status,
      ).toBe(200);
    });
  });

  it("an Audit read back equals the one created, field for field", async () => {
    const created: Audit = await newAudit(team.member.cookie, paste(PAGE, "roundtrip.example"));
    const read = await call(getAudit, "GET", "/x", { cookie: team.viewer.cookie, params: { id: created.id } });
    expect(read.json).toEqual(created);
  });
});
