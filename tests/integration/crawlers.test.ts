import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRAWLER_AGENTS } from "@/lib/schemas/crawlers";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { AI_BLOCKED_PATH, VERDICT_TARGET_PATH } from "@/scripts/lib/fixture-verdict";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { startServer, type RunningServer } from "../helpers/server";
import { parseStrictCsv } from "../helpers/strict-csv";

/**
 * Crawler access per agent (google-view.md §3) against the production build (`npm run build` first), on
 * PGlite and on PostgreSQL: the page signal `crawlers` from a real check and a saved URL audit of fixture
 * pages in a real Chromium, for robots.txt variants (a group for two AI crawlers, Googlebot's own group, a
 * 5xx, a 404), in the agents' one order after the database gave it back; the tracked-link export's
 * `blocked_crawlers`; the audit export (JSON carries the page signals, the CSV stays one row per link).
 */

const SECRET = "crawlers-secret-crawlers-secret-crawlers";

type Access = "allowed" | "disallowed" | "unavailable";
/** Every agent `access`, but those named otherwise. */
const crawlers = (access: Access, except: Partial<Record<(typeof CRAWLER_AGENTS)[number], Access>> = {}) =>
  Object.fromEntries(CRAWLER_AGENTS.map((agent) => [agent, except[agent] ?? access]));

interface Page {
  robotsTxt: string | null;
  crawlers: Record<string, string> | null;
}
interface Monitor {
  id: string;
  page: Page | null;
  links: Array<{ verdict: { value: string; reasons: string[] } | null }>;
}

describe.each(["pglite", "postgres"] as const)("crawler access on %s (production build)", (backend) => {
  let postgres: PostgresServer | undefined;
  let server: RunningServer;
  /** Its robots.txt: the fixture site's own (SITE_ROBOTS_TXT). */
  let site: FixtureSite;
  /** Its robots.txt answers 503, then 404: one origin each, as the robots.txt cache keeps one reading per origin. */
  let unreadable: FixtureSite;
  let missing: FixtureSite;
  let cookie = "";

  beforeAll(async () => {
    [site, unreadable, missing] = await Promise.all([startFixtureSite(), startFixtureSite(), startFixtureSite()]);
    unreadable.setPage("/robots.txt", { status: 503, body: "down", headers: { "content-type": "text/plain" } });
    missing.setPage("/robots.txt", { status: 404, body: "no file", headers: { "content-type": "text/plain" } });
    const database = backend === "postgres" ? await (postgres = await startPostgres()).createDatabase() : null;
    server = await startServer({
      ...(database ? { DATABASE_URL: database, BETTER_AUTH_SECRET: SECRET } : {}),
      ALLOW_PRIVATE_HOSTS: [site, unreadable, missing].map((each) => each.allowEntry).join(","),
      MONITOR_SCHEDULER: "off",
      LINK_CHECK_TIMEOUT_MS: "3000",
    });
    const signUp = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify({
        email: `owner-${backend}@crawlers.example`,
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
    await Promise.all([site?.close(), unreadable?.close(), missing?.close()]);
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

  /** A monitor of `url` tracking the verdict target of its site, checked now: the monitor after the check. */
  async function watch(on: FixtureSite, path: string): Promise<Monitor> {
    const created = await api("POST", "/api/account/monitors", {
      url: on.url(path),
      links: [{ target: on.url(VERDICT_TARGET_PATH) }],
    });
    expect(created.status, created.text).toBe(201);
    const checked = await api("POST", `/api/account/monitors/${(created.json as Monitor).id}/check`);
    expect(checked.status, checked.text).toBe(200);
    return checked.json as Monitor;
  }

  it("a check: robots.txt's answer per agent, in the agents' order, as checked and as read back; not a verdict reason", async () => {
    const monitor = await watch(site, AI_BLOCKED_PATH);
    const expected = crawlers("allowed", { GPTBot: "disallowed", CCBot: "disallowed" });
    expect(monitor.page?.crawlers).toEqual(expected);
    expect(monitor.page?.robotsTxt).toBe("allowed");
    // Crawler access is not a verdict reason: the link counts.
    expect(monitor.links[0]?.verdict).toEqual({ value: "counts", reasons: [] });
    const read = (await api("GET", `/api/account/monitors/${monitor.id}`)).json as Monitor;
    expect(read.page?.crawlers).toEqual(expected);
    expect(Object.keys(read.page?.crawlers ?? {})).toEqual([...CRAWLER_AGENTS]);
  }, 120_000);

  it.each([
    [
      "Googlebot's own group: Googlebot's answer is robotsTxt's",
      "site",
      "/verdict/robots-disallowed",
      "disallowed",
      crawlers("allowed", { Googlebot: "disallowed" }),
    ],
    ["no rule for the page", "site", "/verdict/counts", "allowed", crawlers("allowed")],
    [
      "robots.txt answers 503: every agent unavailable",
      "unreadable",
      "/verdict/counts",
      "unavailable",
      crawlers("unavailable"),
    ],
    ["robots.txt answers 404: every agent allowed", "missing", "/verdict/counts", "allowed", crawlers("allowed")],
  ] as const)(
    "%s",
    async (_label, which, path, robotsTxt, expected) => {
      const monitor = await watch({ site, unreadable, missing }[which], path);
      expect(monitor.page?.robotsTxt).toBe(robotsTxt);
      expect(monitor.page?.crawlers).toEqual(expected);
    },
    120_000,
  );

  it("the tracked-link export: blocked_crawlers after verdict_reasons, agents joined by ;, in CSV and JSON", async () => {
    const csv = await api("GET", "/api/account/links/export?format=csv");
    expect(csv.status, csv.text).toBe(200);
    const [header, ...rows] = parseStrictCsv(csv.text);
    expect(header?.slice(-4)).toEqual(["verdict", "verdict_reasons", "in_google_view", "blocked_crawlers"]);
    const cellOf = (pageUrl: string) => rows.find((row) => row[0] === pageUrl)?.at(-1);
    expect(cellOf(site.url(AI_BLOCKED_PATH))).toBe("GPTBot;CCBot");
    expect(cellOf(site.url("/verdict/robots-disallowed"))).toBe("Googlebot");
    expect(cellOf(site.url("/verdict/counts"))).toBe("");
    // Never read: no set known (an empty cell; null in JSON).
    expect(cellOf(unreadable.url("/verdict/counts"))).toBe("");

    const json = await api("GET", "/api/account/links/export?format=json");
    const items = json.json as Array<Record<string, unknown>>;
    expect(Object.keys(items[0] ?? {}).slice(-4)).toEqual([
      "verdict",
      "verdict_reasons",
      "in_google_view",
      "blocked_crawlers",
    ]);
    const itemOf = (pageUrl: string) => items.find((item) => item.page_url === pageUrl);
    expect(itemOf(site.url(AI_BLOCKED_PATH))?.blocked_crawlers).toBe("GPTBot;CCBot");
    expect(itemOf(site.url("/verdict/counts"))?.blocked_crawlers).toBe("");
    expect(itemOf(unreadable.url("/verdict/counts"))?.blocked_crawlers).toBeNull();
  });

  it("a saved URL audit: Audit.page.crawlers as created and read back; the JSON export carries it, the CSV stays per link", async () => {
    const created = await api("POST", "/api/account/audits", { url: site.url(AI_BLOCKED_PATH) });
    expect(created.status, created.text).toBe(201);
    const audit = created.json as { id: string; page: Page };
    const expected = crawlers("allowed", { GPTBot: "disallowed", CCBot: "disallowed" });
    expect(audit.page.crawlers).toEqual(expected);
    const read = (await api("GET", `/api/account/audits/${audit.id}`)).json as { page: Page };
    expect(read.page.crawlers).toEqual(expected);
    expect(Object.keys(read.page.crawlers ?? {})).toEqual([...CRAWLER_AGENTS]);

    const exported = JSON.parse((await api("GET", `/api/account/audits/${audit.id}/export?format=json`)).text) as {
      page: Page;
    };
    expect(exported.page.crawlers).toEqual(expected);
    expect(Object.keys(exported.page.crawlers ?? {})).toEqual([...CRAWLER_AGENTS]);
    const [header] = parseStrictCsv((await api("GET", `/api/account/audits/${audit.id}/export?format=csv`)).text);
    expect(header?.join(",")).toBe(
      "position,href,linkType,anchorText,isNofollow,isSponsored,isUgc,isImage,httpStatus,matchedGroupName,inRawHtml,hidden,region,inGoogleView",
    );

    const unread = (await api("POST", "/api/account/audits", { url: unreadable.url("/verdict/counts") })).json as {
      page: Page;
    };
    expect(unread.page.crawlers).toEqual(crawlers("unavailable"));
    const pasted = (await api("POST", "/api/account/audits", { html: "<main>x</main>", domain: "paste.example" }))
      .json as { page: Page };
    expect(pasted.page.crawlers).toBeNull();
  }, 120_000);
});
