import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRAWLER_AGENTS } from "@/lib/schemas/crawlers";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { startRobotsOrigins, VERDICT_TARGET_PATH, type RobotsOrigins } from "@/scripts/lib/fixture-verdict";
import { startCanary, type Canary } from "../helpers/canary";
import { ERROR_KEYS, startServer, type RunningServer } from "../helpers/server";
import { parseStrictCsv } from "../helpers/strict-csv";

/**
 * Placement verdict against the production build (`npm run build` first), on PGlite: every reason of
 * placement-verdict.md's two lists provoked by a real page of the fixture site in a real Chromium, by
 * monitor checks ("Check now"; the scheduler is off so each check is the test's), with the page signals
 * on the monitor, the link list's ?verdict= filter and the exports; the same signals in a saved audit.
 */

/** The fixture site's robots.txt keeps no crawler out of these pages (google-view.md §3). */
const ALL_ALLOWED = Object.fromEntries(CRAWLER_AGENTS.map((agent) => [agent, "allowed"]));

let site: FixtureSite;
let robots: RobotsOrigins;
let canary: Canary;
let server: RunningServer;
let cookie = "";

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite();
  robots = await startRobotsOrigins(canary.origin);
  server = await startServer({
    ALLOW_PRIVATE_HOSTS: [site.allowEntry, ...robots.allowEntries].join(","),
    MONITOR_SCHEDULER: "off",
    LINK_CHECK_TIMEOUT_MS: "3000",
    // One organization renders dozens of pages in a row here; its worker-time budget is not under test.
    ANALYSIS_CLIENT_BUDGET_MS: "3600000",
  });
  const signUp = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ email: "builder@verdict.example", password: "correct horse battery", name: "Builder" }),
  });
  expect(signUp.status).toBe(200);
  cookie = signUp.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await robots?.close();
  await site?.close();
  await canary?.close();
});

interface Verdict {
  value: string;
  reasons: string[];
}
interface TrackedLink {
  id: string;
  state: string;
  verdict: Verdict | null;
  matchCount: number | null;
  current:
    | ({
        href: string;
        position: number;
        signals: { inRawHtml: boolean | null; hidden: boolean | null; region: string | null };
      } & Record<string, unknown>)
    | null;
}
interface Monitor {
  id: string;
  status: string;
  page: Record<string, unknown> | null;
  links: TrackedLink[];
}

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json =
    (response.headers.get("content-type") ?? "").startsWith("application/json") && text
      ? (JSON.parse(text) as unknown)
      : null;
  return { status: response.status, text, json, headers: response.headers };
}

/** A monitor of `url` tracking `target` (exact), checked now: the monitor after the check. */
async function watch(url: string, target = site.url(VERDICT_TARGET_PATH)): Promise<Monitor> {
  const created = await api("POST", "/api/account/monitors", { url, links: [{ target }] });
  expect(created.status, created.text).toBe(201);
  return check((created.json as Monitor).id);
}

async function check(id: string): Promise<Monitor> {
  const checked = await api("POST", `/api/account/monitors/${id}/check`);
  expect(checked.status, checked.text).toBe(200);
  return checked.json as Monitor;
}

const only = (monitor: Monitor): TrackedLink => {
  expect(monitor.links).toHaveLength(1);
  return monitor.links[0] as TrackedLink;
};

describe("every reason, provoked by a fixture page and a monitor check", () => {
  it.each([
    ["/verdict/counts", "counts", []],
    ["/verdict/nofollow", "does_not_count", ["nofollow"]],
    ["/verdict/sponsored", "does_not_count", ["sponsored"]],
    ["/verdict/ugc", "does_not_count", ["ugc"]],
    ["/verdict/hidden/display-none", "does_not_count", ["hidden"]],
    ["/verdict/hidden/off-screen", "does_not_count", ["hidden"]],
    ["/verdict/hidden/sr-only", "does_not_count", ["hidden"]],
    ["/verdict/noindex/meta", "does_not_count", ["page_noindex"]],
    ["/verdict/noindex/header-googlebot", "does_not_count", ["page_noindex"]],
    ["/verdict/noindex/header-repeated", "does_not_count", ["page_noindex"]],
    ["/verdict/noindex/header-other-bot", "counts", []],
    ["/verdict/robots-disallowed", "does_not_count", ["robots_disallowed"]],
    ["/verdict/script-only", "at_risk", ["script_only"]],
    ["/verdict/canonical/relative", "at_risk", ["canonical_elsewhere"]],
    ["/verdict/canonical/several-first-elsewhere", "at_risk", ["canonical_elsewhere"]],
    ["/verdict/canonical/several-first-self", "counts", []],
    ["/verdict/canonical/self-trailing-slash", "counts", []],
    ["/verdict/edge/no-head", "at_risk", ["canonical_elsewhere"]],
    ["/verdict/edge/canonical-in-body", "counts", []],
    ["/verdict/redirect", "at_risk", ["page_redirected"]],
    ["/verdict/region/header", "at_risk", ["boilerplate_region"]],
    ["/verdict/region/nav", "at_risk", ["boilerplate_region"]],
    ["/verdict/region/aside", "at_risk", ["boilerplate_region"]],
    ["/verdict/region/footer", "at_risk", ["boilerplate_region"]],
    ["/verdict/region/article", "counts", []],
    ["/verdict/edge/area", "counts", []],
    ["/verdict/edge/area-hidden-image", "does_not_count", ["hidden"]],
    ["/verdict/carousel", "counts", []],
    ["/verdict/many-reasons", "does_not_count", ["nofollow", "page_noindex", "script_only", "boilerplate_region"]],
    // A link a script writes into a shadow root is a link of the page (google-view.md §1), only after script.
    ["/verdict/edge/shadow-dom", "at_risk", ["script_only"]],
  ] as const)("%s: %s %j", async (path, value, reasons) => {
    const link = only(await watch(site.url(path)));
    expect(link.verdict, JSON.stringify(link)).toEqual({ value, reasons });
    expect(link.matchCount).toBe(1);
    expect(link.current?.signals).toBeDefined();
  });

  it("missing: the verdict waits for the confirmed state, then says missing (a link_missing, not a verdict_changed)", async () => {
    const path = "/verdict/dynamic/missing";
    const body = await (await fetch(site.url("/verdict/counts"))).text();
    site.setPage(path, { body });
    const monitor = await watch(site.url(path));
    expect(only(monitor).verdict).toEqual({ value: "counts", reasons: [] });
    site.setPage(path, { body: await (await fetch(site.url("/verdict/missing"))).text() });
    const id = monitor.id;
    const firstMiss = only(await check(id));
    expect(firstMiss).toMatchObject({ state: "live", matchCount: 0, verdict: { value: "counts", reasons: [] } });
    const confirmed = only(await check(id));
    expect(confirmed).toMatchObject({
      state: "missing",
      matchCount: 0,
      verdict: { value: "does_not_count", reasons: ["missing"] },
    });
    const alerts = (await api("GET", `/api/account/alerts?monitorId=${id}`)).json as { items: Array<{ type: string }> };
    expect(alerts.items.map((item) => item.type)).toEqual(["link_missing"]);
  });

  it("removed_by_script: the served HTML has the link, the page's script takes it out", async () => {
    const path = "/verdict/dynamic/removed";
    site.setPage(path, { body: await (await fetch(site.url("/verdict/counts"))).text() });
    const created = await api("POST", "/api/account/monitors", {
      url: site.url(path),
      links: [{ target: site.url(VERDICT_TARGET_PATH) }],
    });
    const id = (created.json as Monitor).id;
    expect(only(await check(id)).verdict).toEqual({ value: "counts", reasons: [] });
    site.setPage(path, { body: await (await fetch(site.url("/verdict/removed-by-script"))).text() });
    await check(id);
    expect(only(await check(id))).toMatchObject({
      state: "missing",
      verdict: { value: "does_not_count", reasons: ["missing", "removed_by_script"] },
    });
  });

  it("broken_target: the target stops answering, confirmed like the state", async () => {
    const target = site.url("/verdict/dynamic/target");
    site.setPage("/verdict/dynamic/target", { body: "<p>ok</p>" });
    site.setPage("/verdict/dynamic/broken", { body: `<main><a href="${target}">partner</a></main>` });
    const created = await api("POST", "/api/account/monitors", {
      url: site.url("/verdict/dynamic/broken"),
      links: [{ target }],
    });
    const id = (created.json as Monitor).id;
    expect(only(await check(id)).verdict).toEqual({ value: "counts", reasons: [] });
    site.setPage("/verdict/dynamic/target", { body: "gone", status: 404 });
    // A first broken observation: the state (and so the verdict) waits for the confirming check.
    expect(only(await check(id)).verdict).toEqual({ value: "counts", reasons: [] });
    expect(only(await check(id))).toMatchObject({
      state: "broken",
      verdict: { value: "does_not_count", reasons: ["broken_target"] },
    });
  });

  it("two matches: matchCount 2 and the one that counts is current", async () => {
    const link = only(await watch(site.url("/verdict/two-matches")));
    expect(link).toMatchObject({
      matchCount: 2,
      verdict: { value: "counts", reasons: [] },
      current: { anchorText: "in the text", signals: { region: "main" } },
    });
  });

  it("links in <template> and iframes are not links of the page: never found, no verdict", async () => {
    for (const path of ["/verdict/edge/template", "/verdict/edge/iframe"]) {
      const link = only(await watch(site.url(path)));
      expect(link, path).toMatchObject({ state: "pending", verdict: null, matchCount: 0, current: null });
    }
  });
});

describe("the page's signals on the monitor", () => {
  it("final URL, noindex and its source, canonical, robots.txt", async () => {
    // Another URL than the reason table's monitors (one monitor per URL): the query makes it one.
    expect((await watch(site.url("/verdict/redirect?page-signals"))).page).toEqual({
      httpStatus: 200,
      finalUrl: site.url("/verdict/redirected-here"),
      noindex: false,
      noindexSource: null,
      canonicalUrl: null,
      canonicalElsewhere: false,
      robotsTxt: "allowed",
      crawlers: ALL_ALLOWED,
      // Googlebot followed the same redirect (google-view.md §2).
      googleView: expect.objectContaining({ status: "ok", finalUrl: site.url("/verdict/redirected-here") }),
    });
    expect((await watch(site.url("/verdict/noindex/both"))).page).toMatchObject({
      noindex: true,
      noindexSource: "header",
    });
    expect((await watch(site.url("/verdict/canonical/relative?page-signals"))).page).toMatchObject({
      canonicalUrl: site.url("/verdict/counts"),
      canonicalElsewhere: true,
    });
  });

  it.each([
    ["html", "allowed", "counts"],
    ["forbidden", "allowed", "counts"],
    ["huge", "allowed", "counts"],
    ["server-error", "unavailable", "counts"],
    ["hang", "unavailable", "counts"],
    ["redirect-other-host", "disallowed", "does_not_count"],
    ["redirect-private", "unavailable", "counts"],
  ] as const)(
    "robots.txt %s: %s, the link %s",
    async (variant, robotsTxt, value) => {
      const before = canary.connections();
      const monitor = await watch(`${robots.origin[variant]}/page`, `${robots.origin[variant]}${VERDICT_TARGET_PATH}`);
      expect(monitor.page?.robotsTxt).toBe(robotsTxt);
      expect(only(monitor).verdict?.value).toBe(value);
      // The guard covers the robots.txt fetch: a redirect to a private address reaches nothing.
      expect(canary.connections()).toBe(before);
    },
    60_000,
  );
});

describe("filters and exports", () => {
  it("?verdict= filters the link list; any other value is 400 INVALID_REQUEST", async () => {
    for (const value of ["counts", "at_risk", "does_not_count"]) {
      const listed = await api("GET", `/api/account/links?verdict=${value}&limit=100`);
      expect(listed.status, listed.text).toBe(200);
      const items = (listed.json as { items: TrackedLink[] }).items;
      expect(items.length, value).toBeGreaterThan(0);
      expect(items.every((item) => item.verdict?.value === value)).toBe(true);
    }
    for (const bad of ["?verdict=bad", "?verdict=", "?verdict=Counts"]) {
      const refused = await api("GET", `/api/account/links${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(Object.keys(refused.json as object).sort()).toEqual(ERROR_KEYS);
      expect((refused.json as { errorCode: string; error: string }).errorCode).toBe("INVALID_REQUEST");
      expect((refused.json as { error: string }).error).toMatch(/^verdict/);
    }
  });

  it("the tracked-link export adds verdict and verdict_reasons after last_seen_at, in CSV and JSON", async () => {
    const csv = await api("GET", "/api/account/links/export?format=csv&verdict=does_not_count");
    expect(csv.status, csv.text).toBe(200);
    const [header, ...rows] = parseStrictCsv(csv.text);
    expect(header?.slice(-7)).toEqual([
      "state",
      "first_seen_at",
      "last_seen_at",
      "verdict",
      "verdict_reasons",
      "in_google_view",
      "blocked_crawlers",
    ]);
    expect(rows.every((row) => row.at(-4) === "does_not_count")).toBe(true);
    expect(rows.map((row) => row.at(-3))).toContain("nofollow;page_noindex;script_only;boilerplate_region");
    const json = await api("GET", "/api/account/links/export?format=json&verdict=at_risk");
    const items = json.json as Array<Record<string, unknown>>;
    expect(Object.keys(items[0] ?? {}).slice(-7)).toEqual([
      "state",
      "first_seen_at",
      "last_seen_at",
      "verdict",
      "verdict_reasons",
      "in_google_view",
      "blocked_crawlers",
    ]);
    expect(items.map((item) => item.verdict_reasons)).toContain("script_only");
  });
});

describe("a saved audit carries the same signals", () => {
  it("Audit.page and each link's signals; the export adds inRawHtml, hidden, region after matchedGroupName", async () => {
    const created = await api("POST", "/api/account/audits", { url: site.url("/verdict/many-reasons") });
    expect(created.status, created.text).toBe(201);
    const audit = created.json as {
      id: string;
      page: Record<string, unknown>;
      links: Array<{ href: string; signals: Record<string, unknown> }>;
    };
    expect(audit.page).toEqual({
      httpStatus: 200,
      finalUrl: site.url("/verdict/many-reasons"),
      noindex: true,
      noindexSource: "meta",
      canonicalUrl: null,
      canonicalElsewhere: false,
      robotsTxt: "allowed",
      crawlers: ALL_ALLOWED,
      googleView: expect.objectContaining({ status: "ok", noindex: true }),
    });
    expect(audit.links.find((link) => link.href === site.url(VERDICT_TARGET_PATH))?.signals).toEqual({
      inRawHtml: false,
      hidden: false,
      region: "footer",
      inGoogleView: true,
    });
    const csv = await api("GET", `/api/account/audits/${audit.id}/export?format=csv`);
    const [header, ...rows] = parseStrictCsv(csv.text);
    expect(header?.slice(-5)).toEqual(["matchedGroupName", "inRawHtml", "hidden", "region", "inGoogleView"]);
    expect(rows.find((row) => row[1] === site.url(VERDICT_TARGET_PATH))?.slice(-4)).toEqual([
      "false",
      "false",
      "footer",
      "true",
    ]);

    const hidden = await api("POST", "/api/account/audits", { url: site.url("/verdict/hidden/display-none") });
    const hiddenAudit = hidden.json as { links: Array<{ href: string; signals: Record<string, unknown> }> };
    expect(hiddenAudit.links.find((link) => link.href === site.url(VERDICT_TARGET_PATH))?.signals).toEqual({
      inRawHtml: true,
      hidden: true,
      region: "main",
      // Hidden by CSS is still in the DOM Googlebot reads.
      inGoogleView: true,
    });

    const pasted = await api("POST", "/api/account/audits", {
      html: '<nav><a href="/x">x</a></nav>',
      domain: "paste.example",
    });
    expect((pasted.json as { page: unknown }).page).toEqual({
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
    expect((pasted.json as { links: Array<{ signals: unknown }> }).links[0]?.signals).toEqual({
      inRawHtml: null,
      hidden: null,
      region: "nav",
      inGoogleView: null,
    });
  });
});
