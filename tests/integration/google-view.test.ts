import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { GOOGLE_PAGES, GOOGLE_TARGET_PATH } from "@/scripts/lib/google-view-pages";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { startServer, type RunningServer } from "../helpers/server";
import { parseStrictCsv } from "../helpers/strict-csv";

/**
 * Google's view (google-view.md §2, §4) against the production build (`npm run build` first), on PGlite and
 * on PostgreSQL, with real Chromium rendering the fixture site's pages (scripts/lib/google-view-pages.ts)
 * as a visitor and as Googlebot Smartphone: each rule gives its reason (or none) to a monitored link, the
 * page signal `googleView` says what Googlebot's render was, a refusal of Googlebot is never a loss, a
 * reason or a page error, the switch turns all of it off, "Check now" and evidence captures render it,
 * URL audits and MCP find_link carry it, and the exports have their columns.
 */

const SECRET = "google-view-secret-google-view-secret-00";

interface GoogleView {
  status: "ok" | "unavailable";
  httpStatus: number | null;
  finalUrl: string | null;
  noindex: boolean | null;
  linkCount: number | null;
  renderedAt: string;
}
interface Monitor {
  id: string;
  status: string;
  googleView: boolean;
  googleViewComparison: {
    visitorLinks: number;
    googleLinks: number;
    onlyVisitor: string[];
    onlyGoogle: string[];
  } | null;
  page: { noindex: boolean | null; googleView: GoogleView | null } | null;
  links: Array<{
    id: string;
    state: string;
    verdict: { value: string; reasons: string[] } | null;
    current: { signals: { inGoogleView: boolean | null } } | null;
  }>;
}

describe.each(["pglite", "postgres"] as const)("Google's view on %s (production build)", (backend) => {
  let postgres: PostgresServer | undefined;
  let server: RunningServer;
  let site: FixtureSite;
  let cookie = "";

  beforeAll(async () => {
    site = await startFixtureSite();
    const database = backend === "postgres" ? await (postgres = await startPostgres()).createDatabase() : null;
    server = await startServer({
      ...(database ? { DATABASE_URL: database, BETTER_AUTH_SECRET: SECRET } : {}),
      ALLOW_PRIVATE_HOSTS: site.allowEntry,
      MONITOR_SCHEDULER: "off",
      // A loss is confirmed by the first check that sees it: each rule shows in one check.
      MONITOR_CONFIRM_CHECKS: "1",
      LINK_CHECK_TIMEOUT_MS: "3000",
      RATE_LIMIT_PER_MINUTE: "1000",
    });
    const signUp = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify({
        email: `owner-${backend}@google-view.example`,
        password: "correct horse battery",
        name: "O",
      }),
    });
    expect(signUp.status).toBe(200);
    cookie = signUp.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await site?.close();
    await postgres?.stop();
  });

  async function api(method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        cookie,
        origin: server.baseUrl,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = (response.headers.get("content-type") ?? "").includes("json") && text ? JSON.parse(text) : null;
    return { status: response.status, text, json: json as unknown };
  }

  /** Googlebot's renders of `path` so far: every render of the page is one request, one of them the visitor's per check. */
  const googlebotHits = (path: string, visitorRenders: number) => site.hits(path) - visitorRenders;

  async function watch(path: string, extra: Record<string, unknown> = {}): Promise<Monitor> {
    const created = await api("POST", "/api/account/monitors", {
      url: site.url(path),
      links: [{ target: site.url(GOOGLE_TARGET_PATH) }],
      ...extra,
    });
    expect(created.status, created.text).toBe(201);
    return created.json as Monitor;
  }

  async function checkNow(id: string): Promise<Monitor> {
    const checked = await api("POST", `/api/account/monitors/${id}/check`);
    expect(checked.status, checked.text).toBe(200);
    return checked.json as Monitor;
  }

  it.each([
    [
      "server-side cloaking: missing for visitors, in Googlebot's render",
      GOOGLE_PAGES.serverCloak,
      "missing",
      ["missing", "shown_only_to_googlebot"],
      null,
    ],
    [
      "client-side cloaking (navigator.userAgent)",
      GOOGLE_PAGES.clientCloak,
      "missing",
      ["missing", "shown_only_to_googlebot"],
      null,
    ],
    [
      "a link written only when the UA is not Googlebot",
      GOOGLE_PAGES.hiddenFromGooglebot,
      "live",
      // Its script writes it: also script_only.
      ["not_in_google_view", "script_only"],
      false,
    ],
    [
      "a sidebar link removed below 600 px (the phone layout)",
      GOOGLE_PAGES.wideSidebar,
      "live",
      ["not_in_google_view"],
      false,
    ],
    [
      "noindex for Googlebot only (meta by UA sniffing)",
      GOOGLE_PAGES.noindexMetaForGooglebot,
      "live",
      ["page_noindex"],
      true,
    ],
    [
      "noindex for Googlebot only (X-Robots-Tag)",
      GOOGLE_PAGES.noindexHeaderForGooglebot,
      "live",
      ["page_noindex"],
      true,
    ],
    ["the same page for everyone", GOOGLE_PAGES.same, "live", [], true],
  ])(
    "%s → %s %j",
    async (_name, path, state, reasons, inGoogleView) => {
      const monitor = await checkNow((await watch(path)).id);
      expect(monitor.status).toBe("ok");
      expect(monitor.page?.googleView).toMatchObject({ status: "ok", httpStatus: 200, finalUrl: site.url(path) });
      expect(monitor.page?.googleView?.noindex).toBe((reasons as readonly string[]).includes("page_noindex"));
      // The visitor's page itself says nothing of noindex: only Googlebot's render does.
      expect(monitor.page?.noindex).toBe(false);
      const link = monitor.links[0];
      expect(link?.state).toBe(state);
      expect(link?.verdict).toEqual({ value: reasons.length > 0 ? "does_not_count" : "counts", reasons });
      if (inGoogleView !== null) expect(link?.current?.signals.inGoogleView).toBe(inGoogleView);
      // Read back the same way.
      const read = (await api("GET", `/api/account/monitors/${monitor.id}`)).json as Monitor;
      expect(read.page?.googleView).toEqual(monitor.page?.googleView);
      expect(read.links[0]?.verdict).toEqual(link?.verdict);
    },
    120_000,
  );

  it("the panel's comparison: the links only one of the two renders has", async () => {
    const monitor = await checkNow((await watch(`${GOOGLE_PAGES.serverCloak}?panel`)).id);
    expect(monitor.googleViewComparison).toMatchObject({
      onlyVisitor: [],
      onlyGoogle: [site.url(GOOGLE_TARGET_PATH)],
    });
    expect(monitor.googleViewComparison?.googleLinks).toBe((monitor.googleViewComparison?.visitorLinks ?? 0) + 1);
  }, 120_000);

  it("a 403 for Googlebot: googleView unavailable, no reason, no page error, the link counts", async () => {
    const monitor = await checkNow((await watch(GOOGLE_PAGES.refuseGooglebot)).id);
    expect(monitor.status).toBe("ok");
    expect(monitor.page?.googleView).toMatchObject({
      status: "unavailable",
      httpStatus: 403,
      noindex: null,
      linkCount: null,
    });
    expect(monitor.links[0]).toMatchObject({ state: "live", verdict: { value: "counts", reasons: [] } });
    expect(monitor.links[0]?.current?.signals.inGoogleView).toBeNull();
    const checks = (await api("GET", `/api/account/monitors/${monitor.id}/checks`)).json as {
      items: Array<{ outcome: string }>;
    };
    expect(checks.items.map((check) => check.outcome)).toEqual(["ok"]);
  }, 120_000);

  it("the off switch (POST and PATCH): no second render, inGoogleView null, no reason of its own", async () => {
    const path = `${GOOGLE_PAGES.hiddenFromGooglebot}?off`;
    const created = await watch(path, { googleView: false });
    expect(created.googleView).toBe(false);
    const off = await checkNow(created.id);
    expect(googlebotHits(path, 1)).toBe(0);
    expect(off.page?.googleView).toBeNull();
    expect(off.googleViewComparison).toBeNull();
    // Its script writes it (script_only), and nothing is said of Google's view.
    expect(off.links[0]).toMatchObject({ state: "live", verdict: { value: "at_risk", reasons: ["script_only"] } });
    expect(off.links[0]?.current?.signals.inGoogleView).toBeNull();

    const on = await api("PATCH", `/api/account/monitors/${created.id}`, { googleView: true });
    expect(on.status, on.text).toBe(200);
    expect((on.json as Monitor).googleView).toBe(true);
    const checked = await checkNow(created.id);
    expect(googlebotHits(path, 2)).toBe(1);
    expect(checked.links[0]?.verdict).toEqual({
      value: "does_not_count",
      reasons: ["not_in_google_view", "script_only"],
    });

    const offAgain = await api("PATCH", `/api/account/monitors/${created.id}`, { googleView: false });
    expect((offAgain.json as Monitor).page?.googleView).toBeNull();
    const unchecked = await checkNow(created.id);
    expect(googlebotHits(path, 3)).toBe(1);
    expect(unchecked.links[0]?.verdict).toEqual({ value: "at_risk", reasons: ["script_only"] });
    const bad = await api("PATCH", `/api/account/monitors/${created.id}`, { googleView: "yes" });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.text).toContain("googleView");
  }, 180_000);

  it("Check now renders Google's view every time; an evidence capture renders it too", async () => {
    const path = `${GOOGLE_PAGES.same}?asked`;
    const monitor = await watch(path);
    await checkNow(monitor.id);
    await checkNow(monitor.id);
    expect(googlebotHits(path, 2)).toBe(2);
    const captured = await api("POST", `/api/account/monitors/${monitor.id}/evidence`);
    expect(captured.status, captured.text).toBe(201);
    expect(googlebotHits(path, 3)).toBe(3);
    const items = (captured.json as { items: Array<{ verdict: unknown; googleScreenshot: unknown }> }).items;
    expect(items[0]?.verdict).toEqual({ value: "counts", reasons: [] });
    expect(items[0]).toHaveProperty("googleScreenshot");
  }, 180_000);

  it("an evidence capture's verdict reads the Google view it rendered", async () => {
    const monitor = await watch(`${GOOGLE_PAGES.wideSidebar}?evidence`);
    const captured = await api("POST", `/api/account/monitors/${monitor.id}/evidence`);
    expect(captured.status, captured.text).toBe(201);
    const items = (captured.json as { items: Array<{ verdict: unknown }> }).items;
    expect(items[0]?.verdict).toEqual({ value: "does_not_count", reasons: ["not_in_google_view"] });
  }, 120_000);

  it("tracked-link exports: in_google_view after verdict_reasons, before blocked_crawlers (CSV and JSON)", async () => {
    const csv = await fetch(`${server.baseUrl}/api/account/links/export?format=csv`, { headers: { cookie } });
    expect(csv.status).toBe(200);
    const rows = parseStrictCsv(await csv.text());
    const header = rows[0] ?? [];
    expect(header.indexOf("in_google_view")).toBe(header.indexOf("verdict_reasons") + 1);
    expect(header.indexOf("blocked_crawlers")).toBe(header.indexOf("in_google_view") + 1);
    const json = (await (
      await fetch(`${server.baseUrl}/api/account/links/export?format=json`, { headers: { cookie } })
    ).json()) as Array<Record<string, unknown>>;
    const byPage = (path: string) => json.find((row) => row.page_url === site.url(path));
    expect(byPage(GOOGLE_PAGES.hiddenFromGooglebot)?.in_google_view).toBe(false);
    expect(byPage(GOOGLE_PAGES.same)?.in_google_view).toBe(true);
    expect(byPage(GOOGLE_PAGES.serverCloak)?.in_google_view).toBe(true);
    expect(byPage(GOOGLE_PAGES.refuseGooglebot)?.in_google_view).toBeNull();
    expect(Object.keys(json[0] ?? {}).indexOf("in_google_view")).toBe(
      Object.keys(json[0] ?? {}).indexOf("verdict_reasons") + 1,
    );
  }, 60_000);

  it("a URL audit renders it once: page.googleView, inGoogleView per link, inGoogleView after region in its exports", async () => {
    const path = `${GOOGLE_PAGES.hiddenFromGooglebot}?audit`;
    const created = await api("POST", "/api/account/audits", { url: site.url(path) });
    expect(created.status, created.text).toBe(201);
    expect(googlebotHits(path, 1)).toBe(1);
    const audit = created.json as {
      id: string;
      stats: { total: number };
      page: { googleView: GoogleView | null };
      links: Array<{ href: string; signals: { inGoogleView: boolean | null } }>;
    };
    expect(audit.page.googleView).toMatchObject({ status: "ok", linkCount: audit.stats.total - 1 });
    const byHref = new Map(audit.links.map((link) => [new URL(link.href).pathname, link.signals.inGoogleView]));
    expect(byHref.get(GOOGLE_TARGET_PATH)).toBe(false);
    expect(byHref.get("/about")).toBe(true);
    const read = (await api("GET", `/api/account/audits/${audit.id}`)).json as typeof audit;
    expect(read.page.googleView).toEqual(audit.page.googleView);
    expect(read.links.map((link) => link.signals.inGoogleView)).toEqual(
      audit.links.map((link) => link.signals.inGoogleView),
    );
    const csv = await fetch(`${server.baseUrl}/api/account/audits/${audit.id}/export?format=csv`, {
      headers: { cookie },
    });
    const rows = parseStrictCsv(await csv.text());
    const header = rows[0] ?? [];
    expect(header.indexOf("inGoogleView")).toBe(header.indexOf("region") + 1);
    const target = rows.find((row) => row[header.indexOf("href")] === site.url(GOOGLE_TARGET_PATH));
    expect(target?.[header.indexOf("inGoogleView")]).toBe("false");
    // Paste mode renders nothing: no Google view.
    const pasted = await api("POST", "/api/account/audits", { html: '<a href="https://example.com/">x</a>' });
    expect(pasted.status, pasted.text).toBe(201);
    expect((pasted.json as typeof audit).page.googleView).toBeNull();
    expect((pasted.json as typeof audit).links[0]?.signals.inGoogleView).toBeNull();
  }, 120_000);

  it("MCP find_link (SDK client): matches carry inGoogleView, the page carries googleView, cloaking is told", async () => {
    const client = new Client({ name: "google-view-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
    try {
      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: "find_link", arguments: args })) as CallToolResult;
      const hidden = (
        await call({ url: site.url(`${GOOGLE_PAGES.hiddenFromGooglebot}?mcp`), target: site.url(GOOGLE_TARGET_PATH) })
      ).structuredContent as {
        found: boolean;
        matches: Array<{ signals: { inGoogleView: boolean | null } }>;
        verdict: { value: string; reasons: string[] };
        page: { googleView: GoogleView | null };
        summary: string;
      };
      expect(hidden.found).toBe(true);
      expect(hidden.matches[0]?.signals.inGoogleView).toBe(false);
      expect(hidden.verdict).toMatchObject({ value: "does_not_count", reasons: ["not_in_google_view", "script_only"] });
      expect(hidden.page.googleView).toMatchObject({ status: "ok", httpStatus: 200 });
      const cloaked = (
        await call({ url: site.url(`${GOOGLE_PAGES.serverCloak}?mcp`), target: site.url(GOOGLE_TARGET_PATH) })
      ).structuredContent as typeof hidden;
      expect(cloaked.found).toBe(false);
      expect(cloaked.summary).toContain("only to Googlebot");
      const pasted = (
        await call({ html: `<a href="${site.url(GOOGLE_TARGET_PATH)}">x</a>`, target: site.url(GOOGLE_TARGET_PATH) })
      ).structuredContent as typeof hidden;
      expect(pasted.page.googleView).toBeNull();
      expect(pasted.matches[0]?.signals.inGoogleView).toBeNull();
    } finally {
      await client.close();
    }
  }, 120_000);
});
