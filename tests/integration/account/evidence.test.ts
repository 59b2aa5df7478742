import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createMonitor } from "@/app/api/account/monitors/route";
import { DELETE as deleteMonitor } from "@/app/api/account/monitors/[id]/route";
import { POST as checkNow } from "@/app/api/account/monitors/[id]/check/route";
import { POST as captureNow } from "@/app/api/account/monitors/[id]/evidence/route";
import { POST as createAudit } from "@/app/api/account/audits/route";
import { DELETE as deleteLink } from "@/app/api/account/links/[id]/route";
import { GET as linkEvidence } from "@/app/api/account/links/[id]/evidence/route";
import { GET as getEvidence } from "@/app/api/account/evidence/[id]/route";
import { GET as getScreenshot } from "@/app/api/account/evidence/[id]/screenshot.png/route";
import { GET as getPageHtml } from "@/app/api/account/evidence/[id]/page.html/route";
import { GET as getReport } from "@/app/api/account/evidence/[id]/report.pdf/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import type { Database } from "@/lib/db";
import { evidence, monitorCheck, organizationDailyUsage } from "@/lib/db/schema";
import { insertEvidence, pageProof } from "@/lib/evidence/record";
import { deleteExpiredEvidence, evidenceRetentionTask, RETENTION_EVERY_MS } from "@/lib/evidence/retention";
import { getConfig } from "@/lib/config";
import type { Evidence } from "@/lib/schemas/evidence";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/scripts/lib/server-process";
import { BACKENDS, call, closeAll, makeRequest, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itEnforcesRoles,
  itFindsIdsBeforeBodies,
  type RouteCase,
} from "./guard-cases";
import { htmlPage, type MonitorJson } from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";
import { pdfText } from "../../helpers/pdf-text";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * Evidence (evidence-and-reports.md "Evidence") on PGlite and PostgreSQL, with real Chromium renders of
 * pages on the local fixture site: which checks keep a record and why (first live sighting, a change of
 * state, a change of verdict; nothing for a check that changes nothing), the record's fields (the SHA-256
 * of the bytes the server sent, the screenshot and the link's box), captures on request and their page
 * errors (nothing stored), their body cap and their place in the daily audit quota, the downloads (PNG, page.html never rendered, the one-page PDF read back with
 * pdftotext), paging, deletion with the link or the monitor, retention, tenant isolation and the guard.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
process.env.MONITOR_CONFIRM_CHECKS = "2";

const EVIDENCE_KEYS = [
  "capturedAt",
  "checkId",
  "finalUrl",
  "googleScreenshot",
  "htmlBytes",
  "htmlSha256",
  "httpStatus",
  "id",
  "link",
  "linkBox",
  "monitorId",
  "reason",
  "screenshot",
  "trackedLinkId",
  "verdict",
];
const DAY = 86_400_000;

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

const sha256 = (text: string) => createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");

describe.each(BACKENDS)("evidence (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let other: Team;
  let run = 0;
  const path = (name: string) => `/evidence-${backend}/${name}-${(run += 1)}`;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `ev-${backend}`);
    other = await makeTeam(database, `evo-${backend}`);
  });

  async function watch(
    pagePath: string,
    links: Array<Record<string, unknown>>,
    who: Team = team,
  ): Promise<MonitorJson> {
    const result = await call(createMonitor, "POST", "/api/account/monitors", {
      cookie: who.member.cookie,
      body: { url: site.url(pagePath), links },
    });
    expect(result.status, result.text).toBe(201);
    return result.json as unknown as MonitorJson;
  }
  async function check(id: string): Promise<MonitorJson> {
    const result = await call(checkNow, "POST", "/x", { cookie: team.member.cookie, params: { id } });
    expect(result.status, result.text).toBe(200);
    return result.json as unknown as MonitorJson;
  }
  async function recordsOf(linkId: string, cookie = team.viewer.cookie): Promise<Evidence[]> {
    const result = await call(linkEvidence, "GET", "/x?limit=100", { cookie, params: { id: linkId } });
    expect(result.status, result.text).toBe(200);
    return (result.json as { items: Evidence[] }).items;
  }
  async function download(handler: Parameters<typeof call>[0], id: string, cookie = team.viewer.cookie) {
    const response = await handler(makeRequest("GET", "/x", { cookie }), { params: Promise.resolve({ id }) });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  describe("what a check keeps", () => {
    const page = path("placement");
    // The fixture site's port is known at load; its server starts in beforeAll.
    const target = `http://127.0.0.1:${FIXTURE_PORT}${page}/target`;
    const body = (link: string) =>
      htmlPage(
        `<h1>A review</h1><p>Read <a href="${target}"${link}>the best shoes</a> today.</p><script>/* </p><b>not markup</b> */</script>`,
      );
    let monitorId = "";
    let linkId = "";
    let firstLive: Evidence;

    beforeAll(async () => {
      site.setPage(page, { body: body("") });
      site.setPage(`${page}/target`, { body: htmlPage("the shop") });
      const created = await watch(page, [{ target }]);
      monitorId = created.id;
      linkId = created.links[0]?.id ?? "";
    });

    it("the first live sighting: one record with the sent HTML's SHA-256, the link, its verdict, a screenshot with the link's box", async () => {
      const checked = await check(monitorId);
      expect(checked.links[0]?.state).toBe("live");
      const records = await recordsOf(linkId);
      expect(records).toHaveLength(1);
      firstLive = records[0] as Evidence;
      expect(Object.keys(firstLive).sort()).toEqual(EVIDENCE_KEYS);
      const [latestCheck] = await database.db.select().from(monitorCheck).where(eq(monitorCheck.monitorId, monitorId));
      expect(firstLive).toMatchObject({
        monitorId,
        trackedLinkId: linkId,
        checkId: latestCheck?.id,
        reason: "first_live",
        finalUrl: site.url(page),
        httpStatus: 200,
        htmlSha256: sha256(body("")),
        htmlBytes: Buffer.byteLength(body(""), "utf8"),
        link: {
          href: target,
          anchorText: "the best shoes",
          isNofollow: false,
          signals: { inRawHtml: true, hidden: false },
        },
        verdict: { value: "counts", reasons: [] },
        screenshot: { width: 1280, height: 800 },
      });
      expect(firstLive.capturedAt).toBe(checked.lastCheckedAt);
      expect(firstLive.linkBox).not.toBeNull();
      expect(firstLive.linkBox?.width).toBeGreaterThan(20);
      expect(firstLive.htmlSha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it("a check that changes nothing keeps nothing", async () => {
      await check(monitorId);
      expect(await recordsOf(linkId)).toHaveLength(1);
    });

    it("a verdict that changes with the state unchanged is verdict_change; a confirmed loss is state_change without a box; a return is state_change", async () => {
      site.setPage(page, { body: body(' rel="nofollow"') });
      const nofollow = await check(monitorId);
      expect(nofollow.links[0]).toMatchObject({
        state: "live",
        verdict: { value: "does_not_count", reasons: ["nofollow"] },
      });
      const afterRel = await recordsOf(linkId);
      expect(afterRel.map((record) => record.reason)).toEqual(["verdict_change", "first_live"]);
      expect(afterRel[0]).toMatchObject({
        link: { isNofollow: true },
        verdict: { value: "does_not_count" },
        htmlSha256: sha256(body(' rel="nofollow"')),
      });

      site.setPage(page, { body: htmlPage("<p>The review was edited.</p>") });
      await check(monitorId); // the first miss waits for its confirmation: no change yet, no record
      expect(await recordsOf(linkId)).toHaveLength(2);
      const confirmed = await check(monitorId);
      expect(confirmed.links[0]?.state).toBe("missing");
      const [missing] = await recordsOf(linkId);
      expect(missing).toMatchObject({
        reason: "state_change",
        link: null,
        linkBox: null,
        verdict: { value: "does_not_count", reasons: ["missing"] },
        screenshot: { width: 1280 },
      });

      site.setPage(page, { body: body("") });
      await check(monitorId);
      const [back] = await recordsOf(linkId);
      expect(back).toMatchObject({ reason: "state_change", link: { href: target }, verdict: { value: "counts" } });
      expect(back?.linkBox).not.toBeNull();
    });

    it("serves the screenshot as a PNG, the HTML as the exact bytes in a text/plain attachment, and a one-page PDF with the URL and the hash", async () => {
      const png = await download(getScreenshot, firstLive.id);
      expect(png.status).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
      expect(png.body.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
      expect(png.body.length).toBe(firstLive.screenshot?.bytes);
      const decoded = PNG.sync.read(png.body);
      expect([decoded.width, decoded.height]).toEqual([firstLive.screenshot?.width, firstLive.screenshot?.height]);

      const html = await download(getPageHtml, firstLive.id);
      expect(html.status).toBe(200);
      expect(html.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(html.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(html.headers.get("x-content-type-options")).toBe("nosniff");
      expect(html.body.equals(Buffer.from(body(""), "utf8"))).toBe(true);
      expect(createHash("sha256").update(html.body).digest("hex")).toBe(firstLive.htmlSha256);

      const pdf = await download(getReport, firstLive.id);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      expect(pdf.headers.get("content-disposition")).toMatch(/^attachment;.*\.pdf"$/);
      expect(pdf.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      const text = pdfText(pdf.body);
      expect(text).toContain(site.url(page));
      expect(text).toContain(firstLive.htmlSha256 ?? "no hash");
      expect(text).toContain(target);
      expect(text).toContain("the best shoes");
      expect(text).toContain("Counts");
      expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    });

    it("pages the list newest first, and refuses a cursor it never gave out", async () => {
      const first = await call(linkEvidence, "GET", "/x?limit=2", {
        cookie: team.viewer.cookie,
        params: { id: linkId },
      });
      const firstPage = first.json as { items: Evidence[]; nextCursor: string | null };
      expect(firstPage.items).toHaveLength(2);
      expect(firstPage.nextCursor).not.toBeNull();
      const second = await call(linkEvidence, "GET", `/x?limit=2&cursor=${firstPage.nextCursor}`, {
        cookie: team.viewer.cookie,
        params: { id: linkId },
      });
      const secondPage = second.json as { items: Evidence[]; nextCursor: string | null };
      const all = [...firstPage.items, ...secondPage.items].map((record) => record.capturedAt);
      expect(all).toEqual([...all].sort().reverse());
      expect(new Set([...firstPage.items, ...secondPage.items].map((record) => record.id)).size).toBe(
        firstPage.items.length + secondPage.items.length,
      );
      expectError(
        await call(linkEvidence, "GET", "/x?cursor=bm90LWEtY3Vyc29y", {
          cookie: team.viewer.cookie,
          params: { id: linkId },
        }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(linkEvidence, "GET", "/x?limit=0", { cookie: team.viewer.cookie, params: { id: linkId } }),
        400,
        "INVALID_REQUEST",
      );
    });

    it("another organization's evidence, link and monitor ids are 404 on every evidence route", async () => {
      const stranger = other.owner.cookie;
      for (const handler of [getEvidence, getScreenshot, getPageHtml, getReport]) {
        const result = await call(handler, "GET", "/x", { cookie: stranger, params: { id: firstLive.id } });
        expectError(result, 404, "NOT_FOUND");
      }
      expectError(
        await call(linkEvidence, "GET", "/x", { cookie: stranger, params: { id: linkId } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(captureNow, "POST", "/x", { cookie: stranger, params: { id: monitorId } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(getEvidence, "GET", "/x", { cookie: team.viewer.cookie, params: { id: "nul\u0000id" } }),
        404,
        "NOT_FOUND",
      );
    });
  });

  describe("captures on request", () => {
    it("renders now: one manual record per tracked link, no check, no state moved; a hidden link is photographed at the top", async () => {
      const page = path("manual");
      const one = site.url(`${page}/one`);
      const two = site.url(`${page}/two`);
      site.setPage(`${page}/one`, { body: htmlPage("one") });
      site.setPage(`${page}/two`, { body: htmlPage("two") });
      site.setPage(page, { body: htmlPage(`<a href="${one}">one</a><a href="${two}" style="display:none">two</a>`) });
      const created = await watch(page, [{ target: one }, { target: two }, { target: "https://c.example/never" }]);
      const result = await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } });
      expect(result.status, result.text).toBe(201);
      const items = (result.json as { items: Evidence[] }).items;
      expect(items.map((item) => [item.trackedLinkId, item.reason, item.checkId])).toEqual(
        created.links.map((link) => [link.id, "manual", null]),
      );
      const [shown, hidden, never] = items;
      expect(shown).toMatchObject({ link: { href: one }, verdict: { value: "counts" } });
      expect(shown?.linkBox).not.toBeNull();
      expect(hidden).toMatchObject({
        link: { signals: { hidden: true } },
        linkBox: null,
        verdict: { value: "does_not_count", reasons: ["hidden"] },
        screenshot: { width: 1280 },
      });
      // A capture counts a loss at once, and a link never seen whose loss counts does not count
      // (docs/spec/placement-verdict.md): the record says so rather than having no verdict.
      expect(never).toMatchObject({
        link: null,
        linkBox: null,
        verdict: { value: "does_not_count", reasons: ["missing"] },
      });
      expect(await database.db.select().from(monitorCheck).where(eq(monitorCheck.monitorId, created.id))).toHaveLength(
        0,
      );
      expect((await getRecord(shown?.id ?? "")).reason).toBe("manual");
      expect((await recordsOf(created.links[0]?.id ?? "")).map((record) => record.id)).toEqual([shown?.id]);
    });

    const today = () => new Date().toISOString().slice(0, 10);
    async function usedToday(): Promise<number> {
      const [row] = await database.db
        .select({ audits: organizationDailyUsage.audits })
        .from(organizationDailyUsage)
        .where(
          and(eq(organizationDailyUsage.organizationId, team.organizationId), eq(organizationDailyUsage.day, today())),
        );
      return row?.audits ?? 0;
    }
    const storedFor = async (monitorId: string) =>
      (await database.db.select({ id: evidence.id }).from(evidence).where(eq(evidence.monitorId, monitorId))).length;

    it("a body over 16 KiB is 413 PAYLOAD_TOO_LARGE before anything renders, counts or is stored", async () => {
      const page = path("big-body");
      site.setPage(page, { body: htmlPage('<a href="https://a.example/one">one</a>') });
      const created = await watch(page, [{ target: "https://a.example/one" }]);
      const before = await usedToday();
      const hits = site.hits(page);
      const tooBig = await call(captureNow, "POST", "/x", {
        cookie: team.member.cookie,
        params: { id: created.id },
        body: { pad: "x".repeat(16 * 1024) },
      });
      expectError(tooBig, 413, "PAYLOAD_TOO_LARGE");
      expect(site.hits(page)).toBe(hits);
      expect(await usedToday()).toBe(before);
      expect(await storedFor(created.id)).toBe(0);
      // A small body means nothing to this operation: it captures.
      expect(
        (await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id }, body: {} }))
          .status,
      ).toBe(201);
    });

    it("counts against ORG_AUDITS_PER_DAY like a saved audit: a unit per capture, given back by a page error, 429 once spent", async () => {
      const limit = getConfig().ORG_AUDITS_PER_DAY;
      const page = path("quota");
      site.setPage(page, { body: htmlPage('<a href="https://a.example/one">one</a>') });
      const created = await watch(page, [{ target: "https://a.example/one" }]);
      const before = await usedToday();
      const captured = await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } });
      expect(captured.status, captured.text).toBe(201);
      expect(await usedToday()).toBe(before + 1);
      expect(captured.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(captured.headers.get("x-ratelimit-remaining")).toBe(String(limit - before - 1));

      // A page error stores nothing and gives its unit back, as a failed audit does.
      site.setPage(page, { status: 500, body: "down" });
      expectError(
        await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } }),
        502,
        "UPSTREAM_ERROR",
      );
      expect(await usedToday()).toBe(before + 1);
      site.setPage(page, { body: htmlPage('<a href="https://a.example/one">one</a>') });

      // The day's quota spent (by audits or captures alike): 429, nothing rendered, nothing stored; audits are refused too.
      await database.db
        .insert(organizationDailyUsage)
        .values({ organizationId: team.organizationId, day: today(), audits: limit })
        .onConflictDoUpdate({
          target: [organizationDailyUsage.organizationId, organizationDailyUsage.day],
          set: { audits: limit },
        });
      const hits = site.hits(page);
      const stored = await storedFor(created.id);
      const refused = await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } });
      expectError(refused, 429, "RATE_LIMITED");
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(site.hits(page)).toBe(hits);
      expect(await storedFor(created.id)).toBe(stored);
      expectError(
        await call(createAudit, "POST", "/x", {
          cookie: team.member.cookie,
          body: { html: "<a href=/x>x</a>", domain: "quota.example" },
        }),
        429,
        "RATE_LIMITED",
      );
      expect(await usedToday()).toBe(limit);
      // Later tests capture again.
      await database.db
        .delete(organizationDailyUsage)
        .where(eq(organizationDailyUsage.organizationId, team.organizationId));
    });

    it("a page error answers the analyzer's status and code and stores nothing", async () => {
      const page = path("failing");
      site.setPage(page, { status: 500, body: "down" });
      const created = await watch(page, [{ target: "https://a.example/one" }]);
      expectError(
        await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } }),
        502,
        "UPSTREAM_ERROR",
      );
      site.setPage(page, { status: 403, body: "no bots" });
      const refused = await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } });
      expectError(refused, 422, "UNPROCESSABLE_PAGE");
      expect(await database.db.select().from(evidence).where(eq(evidence.monitorId, created.id))).toHaveLength(0);
    });
  });

  async function getRecord(id: string): Promise<Evidence> {
    const result = await call(getEvidence, "GET", "/x", { cookie: team.viewer.cookie, params: { id } });
    expect(result.status, result.text).toBe(200);
    expect(result.headers.get("cache-control")).toBe("private, no-store");
    return result.json as unknown as Evidence;
  }

  it("goes with its tracked link and with its monitor", async () => {
    const page = path("deleted");
    site.setPage(page, {
      body: htmlPage(`<a href="https://a.example/one">one</a><a href="https://b.example/two">two</a>`),
    });
    const created = await watch(page, [{ target: "https://a.example/one" }, { target: "https://b.example/two" }]);
    const items = (
      (await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } })).json as {
        items: Evidence[];
      }
    ).items;
    expect(items).toHaveLength(2);
    expect(
      (
        await call(deleteLink, "DELETE", "/x", {
          cookie: team.member.cookie,
          params: { id: created.links[0]?.id ?? "" },
        })
      ).status,
    ).toBe(204);
    expectError(
      await call(getEvidence, "GET", "/x", { cookie: team.viewer.cookie, params: { id: items[0]?.id ?? "" } }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call(linkEvidence, "GET", "/x", { cookie: team.viewer.cookie, params: { id: created.links[0]?.id ?? "" } }),
      404,
      "NOT_FOUND",
    );
    expect((await getRecord(items[1]?.id ?? "")).trackedLinkId).toBe(created.links[1]?.id);
    expect(
      (await call(deleteMonitor, "DELETE", "/x", { cookie: team.member.cookie, params: { id: created.id } })).status,
    ).toBe(204);
    expectError(
      await call(getReport, "GET", "/x", { cookie: team.viewer.cookie, params: { id: items[1]?.id ?? "" } }),
      404,
      "NOT_FOUND",
    );
    expect(await database.db.select().from(evidence).where(eq(evidence.monitorId, created.id))).toHaveLength(0);
  });

  it("is kept EVIDENCE_RETENTION_DAYS: older records go at the scheduler's tick, newer ones stay", async () => {
    const page = path("retention");
    const created = await watch(page, [{ target: "https://a.example/one" }]);
    // Records of the other tests were captured today: only these, dated in the past, may expire.
    const now = new Date();
    const proof = await pageProof({
      pageUrl: site.url(page),
      finalUrl: null,
      httpStatus: 200,
      rawHtml: Buffer.from("<p>old</p>"),
    });
    const record = (daysAgo: number) => ({
      organizationId: team.organizationId,
      monitorId: created.id,
      trackedLinkId: created.links[0]?.id ?? "",
      checkId: null,
      capturedAt: new Date(now.getTime() - daysAgo * DAY),
      reason: "manual" as const,
      target: "https://a.example/one",
      match: "exact" as const,
      link: null,
      verdict: null,
      shot: null,
      googleShot: null,
    });
    const [expired, kept] = await insertEvidence(database.db, proof, [record(401), record(399)]);
    const withoutScreenshot = await download(getScreenshot, kept ?? "");
    expect(withoutScreenshot.status).toBe(404);
    expect(await deleteExpiredEvidence(database.db, now, 400)).toBe(1);
    expectError(
      await call(getEvidence, "GET", "/x", { cookie: team.viewer.cookie, params: { id: expired ?? "" } }),
      404,
      "NOT_FOUND",
    );
    expect((await getRecord(kept ?? "")).htmlSha256).toBe(sha256("<p>old</p>"));

    // The tick's task: it runs at its first tick, then not again until RETENTION_EVERY_MS have passed.
    const task = evidenceRetentionTask();
    const config = { ...getConfig(), EVIDENCE_RETENTION_DAYS: 398 };
    const tick = (at: Date) => task.run({ db: database.db, now: at, config, boss: undefined as never });
    await insertEvidence(database.db, proof, [record(500)]);
    await tick(now);
    expectError(
      await call(getEvidence, "GET", "/x", { cookie: team.viewer.cookie, params: { id: kept ?? "" } }),
      404,
      "NOT_FOUND",
    );
    const [later] = await insertEvidence(database.db, proof, [record(450)]);
    await tick(new Date(now.getTime() + RETENTION_EVERY_MS - 1));
    expect((await getRecord(later ?? "")).id).toBe(later);
    await tick(new Date(now.getTime() + RETENTION_EVERY_MS));
    expectError(
      await call(getEvidence, "GET", "/x", { cookie: team.viewer.cookie, params: { id: later ?? "" } }),
      404,
      "NOT_FOUND",
    );
  });

  describe("guard", () => {
    const ids = { monitor: "", link: "", record: "" };
    beforeAll(async () => {
      const page = path("guard");
      site.setPage(page, { body: htmlPage(`<a href="https://a.example/one">one</a>`) });
      const created = await watch(page, [{ target: "https://a.example/one" }]);
      ids.monitor = created.id;
      ids.link = created.links[0]?.id ?? "";
      const captured = await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: created.id } });
      ids.record = (captured.json as { items: Evidence[] }).items[0]?.id ?? "";
    });
    const ROUTES: RouteCase[] = [
      {
        name: "POST /monitors/{id}/evidence",
        handler: captureNow,
        method: "POST",
        path: "/api/account/monitors/x/evidence",
        minRole: "member",
        params: () => ({ id: ids.monitor }),
      },
      {
        name: "GET /links/{id}/evidence",
        handler: linkEvidence,
        method: "GET",
        path: "/api/account/links/x/evidence",
        minRole: "viewer",
        params: () => ({ id: ids.link }),
      },
      {
        name: "GET /evidence/{id}",
        handler: getEvidence,
        method: "GET",
        path: "/api/account/evidence/x",
        minRole: "viewer",
        params: () => ({ id: ids.record }),
      },
      {
        name: "GET /evidence/{id}/screenshot.png",
        handler: getScreenshot,
        method: "GET",
        path: "/api/account/evidence/x/screenshot.png",
        minRole: "viewer",
        params: () => ({ id: ids.record }),
      },
      {
        name: "GET /evidence/{id}/page.html",
        handler: getPageHtml,
        method: "GET",
        path: "/api/account/evidence/x/page.html",
        minRole: "viewer",
        params: () => ({ id: ids.record }),
      },
      {
        name: "GET /evidence/{id}/report.pdf",
        handler: getReport,
        method: "GET",
        path: "/api/account/evidence/x/report.pdf",
        minRole: "viewer",
        params: () => ({ id: ids.record }),
      },
    ];
    itChecksGuardOrder(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
  });
});
