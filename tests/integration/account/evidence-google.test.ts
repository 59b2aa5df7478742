import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createMonitor } from "@/app/api/account/monitors/route";
import { POST as checkNow } from "@/app/api/account/monitors/[id]/check/route";
import { POST as captureNow } from "@/app/api/account/monitors/[id]/evidence/route";
import { GET as linkEvidence } from "@/app/api/account/links/[id]/evidence/route";
import { GET as getGoogleShot } from "@/app/api/account/evidence/[id]/google.png/route";
import { GET as getReport } from "@/app/api/account/evidence/[id]/report.pdf/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
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
import { pdfInfo, pdfText } from "../../helpers/pdf-text";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * Googlebot's screenshot in evidence (google-view.md §2) on PGlite and PostgreSQL, with real Chromium
 * renders of a page that cloaks on the client: a record whose verdict carries `not_in_google_view` or
 * `shown_only_to_googlebot` keeps a PNG of Googlebot's phone render (the link outlined when that render has
 * it), served at /evidence/{id}/google.png like the visitor's screenshot; any other record keeps none (404);
 * the PDF prints both shots, labelled (read back with pdftotext).
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
process.env.MONITOR_CONFIRM_CHECKS = "2";

/** Googlebot Smartphone's viewport in PNG pixels: 412×915 CSS px at 2.625. */
const PHONE_PNG = { width: Math.round(412 * 2.625), height: Math.round(915 * 2.625) };

// Targets on the fixture site, so their link checks answer 200 and each verdict has only the reasons under test.
const target = (name: string) => `http://127.0.0.1:${FIXTURE_PORT}/evidence-google-targets/${name}`;
const VISITOR_ONLY = target("deal-for-visitors");
const GOOGLE_ONLY = target("offer-for-google");
const BOTH = target("article");

/** A page that writes one link for visitors and another for Googlebot's user agent (client-side cloaking). */
const CLOAKING_PAGE = htmlPage(`
<main><h1>Guest post</h1><p>Read <a href="${BOTH}">the article</a>.</p><div id="slot"></div></main>
<script>
  const bot = /Googlebot/.test(navigator.userAgent);
  const a = document.createElement("a");
  a.href = bot ? "${GOOGLE_ONLY}" : "${VISITOR_ONLY}";
  a.textContent = bot ? "offer for Google" : "deal for visitors";
  a.style.cssText = "display:inline-block;padding:8px;font-size:20px";
  document.getElementById("slot").append(a);
</script>`);

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

function pdfTextAndPages(pdf: Buffer): { text: string; pages: number } {
  return { text: pdfText(pdf), pages: Number(/^Pages:\s+(\d+)/m.exec(pdfInfo(pdf))?.[1] ?? 0) };
}

describe.each(BACKENDS)("Googlebot's screenshot in evidence (%s)", (backend) => {
  let team: Team;
  let other: Team;
  let monitor: MonitorJson;
  const records = new Map<string, Evidence>();
  const page = `/evidence-google-${backend}/cloaking`;

  beforeAll(async () => {
    const database = await useFreshDatabase(backend);
    team = await makeTeam(database, `evg-${backend}`);
    other = await makeTeam(database, `evgo-${backend}`);
    site.setPage(page, { body: CLOAKING_PAGE });
    for (const url of [VISITOR_ONLY, GOOGLE_ONLY, BOTH]) site.setPage(new URL(url).pathname, { body: htmlPage("ok") });
    const created = await call(createMonitor, "POST", "/api/account/monitors", {
      cookie: team.member.cookie,
      body: { url: site.url(page), links: [{ target: VISITOR_ONLY }, { target: GOOGLE_ONLY }, { target: BOTH }] },
    });
    expect(created.status, created.text).toBe(201);
    monitor = created.json as unknown as MonitorJson;
    const captured = await call(captureNow, "POST", "/x", { cookie: team.member.cookie, params: { id: monitor.id } });
    expect(captured.status, captured.text).toBe(201);
    const items = (captured.json as { items: Evidence[] }).items;
    for (const link of monitor.links) {
      const record = items.find((item) => item.trackedLinkId === link.id);
      if (record) records.set(link.target, record);
    }
  });

  async function download(handler: Parameters<typeof call>[0], id: string, cookie = team.viewer.cookie) {
    const response = await handler(makeRequest("GET", "/x", { cookie }), { params: Promise.resolve({ id }) });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }
  const recordOf = (target: string): Evidence => {
    const record = records.get(target);
    if (!record) throw new Error(`no record for ${target}: ${JSON.stringify([...records.keys()])}`);
    return record;
  };

  it("a capture keeps Googlebot's phone render exactly for the links whose verdict names Google's view", () => {
    expect(recordOf(VISITOR_ONLY).verdict?.reasons).toContain("not_in_google_view");
    expect(recordOf(GOOGLE_ONLY).verdict?.reasons).toContain("shown_only_to_googlebot");
    expect(recordOf(BOTH).verdict?.reasons).not.toContain("not_in_google_view");
    expect(recordOf(BOTH).verdict?.reasons).not.toContain("shown_only_to_googlebot");
    for (const target of [VISITOR_ONLY, GOOGLE_ONLY]) {
      expect(recordOf(target).googleScreenshot, target).toMatchObject(PHONE_PNG);
      // The visitor's own shot is still the desktop one.
      expect(recordOf(target).screenshot?.width, target).toBe(1280);
    }
    expect(recordOf(BOTH).googleScreenshot).toBeNull();
  });

  it("serves it at google.png like the visitor's screenshot: a PNG of the recorded size, inline, nosniff, cached privately", async () => {
    for (const target of [VISITOR_ONLY, GOOGLE_ONLY]) {
      const record = recordOf(target);
      const png = await download(getGoogleShot, record.id);
      expect(png.status, target).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
      expect(png.headers.get("x-content-type-options")).toBe("nosniff");
      expect(png.headers.get("cache-control")).toBe("private, max-age=3600");
      expect(png.headers.get("content-disposition")).toBe(`inline; filename="evidence-${record.id}-google.png"`);
      expect(png.body.length).toBe(record.googleScreenshot?.bytes);
      const decoded = PNG.sync.read(png.body);
      expect([decoded.width, decoded.height]).toEqual([
        record.googleScreenshot?.width,
        record.googleScreenshot?.height,
      ]);
    }
  });

  it("a record that kept none is 404 NOT_FOUND saying why; another organization's record is 404 too", async () => {
    const none = await call(getGoogleShot, "GET", "/x", {
      cookie: team.viewer.cookie,
      params: { id: recordOf(BOTH).id },
    });
    expectError(none, 404, "NOT_FOUND");
    expect(String(none.json?.hint)).toMatch(/not in Google's view or shown only to Googlebot/);
    const stranger = await call(getGoogleShot, "GET", "/x", {
      cookie: other.owner.cookie,
      params: { id: recordOf(VISITOR_ONLY).id },
    });
    expectError(stranger, 404, "NOT_FOUND");
    expectError(
      await call(getGoogleShot, "GET", "/x", { cookie: team.viewer.cookie, params: { id: "not-an-id" } }),
      404,
      "NOT_FOUND",
    );
  });

  it("the PDF prints both shots on one page, labelled, with the link outlined in Googlebot's where it has it", async () => {
    const cloaked = pdfTextAndPages((await download(getReport, recordOf(GOOGLE_ONLY).id)).body);
    expect(cloaked.pages).toBe(1);
    expect(cloaked.text).toContain("A visitor's view (desktop)");
    expect(cloaked.text).toContain("Googlebot's view (phone)");
    expect(cloaked.text.replace(/\s+/g, " ")).toMatch(
      /Googlebot Smartphone rendered it \(412 px wide phone\), scrolled to the link/,
    );
    expect(cloaked.text).toContain("shown only to Googlebot");

    const hidden = pdfTextAndPages((await download(getReport, recordOf(VISITOR_ONLY).id)).body);
    expect(hidden.pages).toBe(1);
    expect(hidden.text.replace(/\s+/g, " ")).toMatch(/the link is not in Googlebot's view/);
    expect(hidden.text.replace(/\s+/g, " ")).toMatch(/In Googlebot's view\s+no/);

    const plain = pdfTextAndPages((await download(getReport, recordOf(BOTH).id)).body);
    expect(plain.text).not.toContain("Googlebot's view (phone)");
    expect(plain.text).not.toContain("A visitor's view (desktop)");
  });

  it("a check keeps it too: the first live sighting of a link Googlebot does not get", async () => {
    const checked = await call(checkNow, "POST", "/x", { cookie: team.member.cookie, params: { id: monitor.id } });
    expect(checked.status, checked.text).toBe(200);
    const linkId = monitor.links.find((link) => link.target === VISITOR_ONLY)?.id ?? "";
    const listed = await call(linkEvidence, "GET", "/x", { cookie: team.viewer.cookie, params: { id: linkId } });
    const fromCheck = (listed.json as { items: Evidence[] }).items.find((item) => item.checkId !== null);
    expect(fromCheck?.reason, listed.text).toBe("first_live");
    expect(fromCheck?.verdict?.reasons).toContain("not_in_google_view");
    expect(fromCheck?.googleScreenshot).toMatchObject(PHONE_PNG);
    expect((await download(getGoogleShot, fromCheck?.id ?? "")).status).toBe(200);
  });

  describe("guard", () => {
    const ROUTES: RouteCase[] = [
      {
        name: "GET /evidence/{id}/google.png",
        handler: getGoogleShot,
        method: "GET",
        path: "/api/account/evidence/x/google.png",
        minRole: "viewer",
        params: () => ({ id: recordOf(VISITOR_ONLY).id }),
      },
    ];
    itChecksGuardOrder(ROUTES, () => team);
    itEnforcesRoles(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);
  });
});
