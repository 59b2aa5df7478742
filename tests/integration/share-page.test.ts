import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARE_PAGE_CSP } from "@/lib/shares/headers";
import { hashToken } from "@/lib/shares/token";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { ERROR_KEYS, startServer, type RunningServer } from "../helpers/server";

/**
 * Client reports and history over HTTP against the production build (`npm run build` first), on the
 * embedded PGlite and on PostgreSQL: every route of evidence-and-reports.md's "Client reports" and
 * "History and charts" through the real server, and the /r/{token} page itself: read-only HTML rendered
 * on the server (no JavaScript needed, and none sent), its headers (a CSP that allows no script), no
 * private field, 5,000 links in pages, the CSV, the same 404 for unknown, truncated, extended, revoked
 * and expired tokens, and a server output (every log level) that never holds a token or its hash.
 */

const SECRET = "share-page-secret-share-page-secret-0000";
const BULK = 5_000;
const SHARE_HEADERS = {
  "x-robots-tag": "noindex, nofollow",
  "referrer-policy": "no-referrer",
  "cache-control": "private, no-store",
  "content-security-policy": SHARE_PAGE_CSP,
};
/** Next's hydration scripts and script preloads, which a report page must not carry (its CSP would refuse each). */
const SCRIPT_MARKUP = /<script|<link[^>]*(as="script"|modulepreload)/i;

let postgres: PostgresServer | undefined;
afterAll(async () => {
  await postgres?.stop();
});

interface Session {
  cookie: string;
  email: string;
}

describe.each(["pglite", "postgres"] as const)("client reports over HTTP (%s)", (backend) => {
  let server: RunningServer;
  let owner: Session;
  let stranger: Session;
  let monitorId = "";
  let linkIds: string[] = [];
  const tokens = { tag: "", monitor: "", audit: "", bulk: "", revoked: "" };
  let revokedId = "";

  const url = (path: string) => `${server.baseUrl}${path}`;
  async function api(session: Session, method: string, path: string, body?: unknown, contentType = "application/json") {
    const response = await fetch(url(path), {
      method,
      headers: {
        cookie: session.cookie,
        ...(method === "GET" ? {} : { origin: server.baseUrl }),
        ...(body === undefined ? {} : { "content-type": contentType }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      json:
        text && (response.headers.get("content-type") ?? "").includes("json")
          ? (JSON.parse(text) as Record<string, unknown>)
          : null,
    };
  }
  async function signUp(email: string): Promise<Session> {
    const response = await fetch(url("/api/auth/sign-up/email"), {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify({ email, password: "correct horse battery", name: "Olivia" }),
    });
    expect(response.status).toBe(200);
    return {
      email,
      cookie: response.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; "),
    };
  }
  async function share(body: Record<string, unknown>): Promise<{ id: string; token: string }> {
    const result = await api(owner, "POST", "/api/account/shares", body);
    expect(result.status, result.text).toBe(201);
    const shareUrl = String(result.json?.url);
    expect(shareUrl.startsWith(`${server.baseUrl}/r/`)).toBe(true);
    return { id: String(result.json?.id), token: shareUrl.slice(shareUrl.lastIndexOf("/") + 1) };
  }
  /** A page fetched as a browser without cookies, JavaScript or a session would. */
  async function page(path: string) {
    const response = await fetch(url(path), { redirect: "manual" });
    // React separates adjacent text pieces with <!-- -->; the tests read the text as a person would.
    return {
      status: response.status,
      headers: response.headers,
      text: (await response.text()).replaceAll("<!-- -->", ""),
    };
  }
  function expectShareHeaders(headers: Headers) {
    for (const [name, value] of Object.entries(SHARE_HEADERS)) expect(headers.get(name), name).toBe(value);
  }

  beforeAll(async () => {
    // Every level, so the output the last test searches holds every line the server can write.
    const env: Record<string, string> = { MONITOR_SCHEDULER: "off", LOG_LEVEL: "debug" };
    if (backend === "postgres") {
      postgres ??= await startPostgres();
      Object.assign(env, { DATABASE_URL: await postgres.createDatabase(), BETTER_AUTH_SECRET: SECRET });
    }
    server = await startServer(env);
    owner = await signUp(`olivia-${backend}@example.com`);
    stranger = await signUp(`stranger-${backend}@example.com`);
    const monitor = await api(owner, "POST", "/api/account/monitors", {
      url: "https://blog.example/guest-post",
      tags: ["acme"],
      links: [
        {
          target: "https://mysite.example/landing",
          notes: "SECRET NOTE: invoice 42",
          cost: 321.5,
          expectedAnchor: "Best shoes",
        },
        { target: "mysite.example", match: "domain" },
      ],
    });
    expect(monitor.status, monitor.text).toBe(201);
    monitorId = String(monitor.json?.id);
    linkIds = (monitor.json?.links as Array<{ id: string }>).map((link) => link.id);
    const rows = Array.from(
      { length: BULK },
      (_, index) =>
        `https://bulk.example/page-${String(index % 50).padStart(2, "0")},https://mysite.example/bulk-${index},exact,,,bulk,,,`,
    );
    const imported = await api(
      owner,
      "POST",
      "/api/account/links/import",
      `page_url,target_url,match,expected_anchor,expected_rel,tags,expires_on,cost,notes\n${rows.join("\n")}\n`,
      "text/csv",
    );
    expect(imported.status, imported.text).toBe(200);
    expect(imported.json?.created).toBe(BULK);
    const audit = await api(owner, "POST", "/api/account/audits", {
      html: '<!doctype html><title>Review</title><a href="/about">About us</a> <a href="https://partner.example/" rel="sponsored">=SUM(1,2)</a>',
      domain: "review.example",
    });
    expect(audit.status, audit.text).toBe(201);
    tokens.tag = (await share({ title: "Acme: guest posts", scope: "tag", tag: "acme" })).token;
    tokens.monitor = (await share({ title: "One page", scope: "monitor", monitorId })).token;
    tokens.audit = (await share({ title: "The review", scope: "audit", auditId: String(audit.json?.id) })).token;
    tokens.bulk = (await share({ title: "Bulk", scope: "tag", tag: "bulk" })).token;
    const revoked = await share({ title: "Revoked", scope: "monitor", monitorId });
    tokens.revoked = revoked.token;
    revokedId = revoked.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the account routes answer over HTTP: shares listed without URLs, revoked, daily stats and uptime", async () => {
    const list = await api(owner, "GET", "/api/account/shares?limit=100");
    expect(list.status).toBe(200);
    expect((list.json?.items as unknown[]).length).toBe(5);
    expect(list.text).not.toContain("/r/");
    expect((await api(owner, "DELETE", `/api/account/shares/${revokedId}`)).status).toBe(204);
    const stats = await api(owner, "GET", "/api/account/stats/daily?days=90");
    expect(stats.status).toBe(200);
    const days = stats.json?.days as Array<Record<string, number | string>>;
    expect(days).toHaveLength(90);
    expect(days.at(-1)).toMatchObject({ pending: BULK + 2, live: 0 });
    expect(days.at(-2)).toMatchObject({ pending: 0 });
    const uptime = await api(owner, "GET", `/api/account/links/${linkIds[0]}/uptime`);
    expect(uptime.status).toBe(200);
    expect(uptime.json).toMatchObject({ livePercent: null });
    const batch = await api(owner, "GET", `/api/account/links/uptime?ids=${linkIds.join(",")}`);
    expect(batch.status).toBe(200);
    expect((batch.json?.items as Array<{ id: string }>).map((item) => item.id)).toEqual(linkIds);
    expect((await api(owner, "GET", "/api/account/stats/daily?days=7")).status).toBe(400);
  });

  it("another organization's share and link ids are 404 on every new route, and its lists are its own", async () => {
    for (const [method, path] of [
      ["DELETE", `/api/account/shares/${revokedId}`],
      ["GET", `/api/account/links/${linkIds[0]}/uptime`],
    ] as const) {
      const result = await api(stranger, method, path);
      expect(result.status, path).toBe(404);
      expect(Object.keys(result.json ?? {}).sort()).toEqual(ERROR_KEYS);
    }
    expect(
      (await api(stranger, "POST", "/api/account/shares", { title: "Steal", scope: "monitor", monitorId })).status,
    ).toBe(404);
    expect((await api(stranger, "GET", "/api/account/shares")).json?.items).toEqual([]);
    expect((await api(stranger, "GET", `/api/account/links/uptime?ids=${linkIds.join(",")}`)).json?.items).toEqual([]);
    expect(
      ((await api(stranger, "GET", "/api/account/stats/daily")).json?.days as Array<Record<string, number>>).at(-1),
    ).toMatchObject({ pending: 0, live: 0 });
  });

  it("/r/{token} is a read-only HTML page rendered on the server, with the report's headers and nothing private", async () => {
    const report = await page(`/r/${tokens.tag}`);
    expect(report.status).toBe(200);
    expect(report.headers.get("content-type")).toMatch(/^text\/html/);
    expectShareHeaders(report.headers);
    // Everything is in the HTML as sent: no JavaScript has to run for it.
    expect(report.text).toContain("Acme: guest posts");
    expect(report.text).toContain("Client report by Olivia&#x27;s team");
    expect(report.text).toContain("https://mysite.example/landing");
    expect(report.text).toContain("Tracked links tagged “acme”");
    expect(report.text.match(/data-testid="report-link"/g)).toHaveLength(2);
    expect(report.text.match(/data-testid="uptime-strip"/g)).toHaveLength(2);
    expect(report.text).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(report.text).toContain('<meta name="referrer" content="no-referrer"/>');
    for (const secret of [
      "SECRET NOTE",
      "321.5",
      "Best shoes",
      owner.email,
      monitorId,
      ...linkIds,
      tokens.monitor,
      tokens.audit,
    ])
      expect(report.text, secret).not.toContain(secret);
    // Nothing to press: no form, no button, no input, no way into the app.
    for (const control of ["<form", "<button", "<input", "<select", "<textarea", 'href="/app', 'href="/sign-in'])
      expect(report.text, control).not.toContain(control);
    // Nothing to run: Next's scripts are not sent (the CSP would refuse them), the stylesheet is.
    expect(report.text).not.toMatch(SCRIPT_MARKUP);
    expect(report.text).toMatch(/<link rel="stylesheet" href="\/_next\/static\/[^"]+\.css"/);
    expect(report.text.endsWith("</body></html>")).toBe(true);
  });

  it("a monitor's and an audit's report", async () => {
    const monitor = await page(`/r/${tokens.monitor}`);
    expect(monitor.status).toBe(200);
    expect(monitor.text).toContain("Tracked links on https://blog.example/guest-post");
    const audit = await page(`/r/${tokens.audit}`);
    expect(audit.status).toBe(200);
    expectShareHeaders(audit.headers);
    expect(audit.text).toContain("Links on https://review.example/");
    expect(audit.text.match(/data-testid="report-audit-link"/g)).toHaveLength(2);
    expect(audit.text).toContain("=SUM(1,2)");
    expect(audit.text).not.toContain(owner.email);
  });

  it(`${BULK.toLocaleString("en-US")} links come 100 a page through plain links; pages beyond are 404`, async () => {
    const first = await page(`/r/${tokens.bulk}`);
    expect(first.status).toBe(200);
    expect(first.text).toContain("Page 1 of 50");
    expect(first.text.match(/data-testid="report-link"/g)).toHaveLength(100);
    expect(first.text).toContain(`href="/r/${tokens.bulk}?page=2"`);
    const last = await page(`/r/${tokens.bulk}?page=50`);
    expect(last.status).toBe(200);
    expect(last.text).toContain("Page 50 of 50");
    expect(last.text).toContain("https://bulk.example/page-49");
    expect(last.text).not.toContain('rel="next"');
    for (const beyond of ["51", "0", "-1", "abc", "2.5", "1e1"]) {
      const answer = await page(`/r/${tokens.bulk}?page=${beyond}`);
      expect(answer.status, beyond).toBe(404);
      expectShareHeaders(answer.headers);
    }
  });

  it("/r/{token}/export.csv: every row as a formula-safe CSV download with the same headers", async () => {
    const bulk = await page(`/r/${tokens.bulk}/export.csv`);
    expect(bulk.status).toBe(200);
    expect(bulk.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(bulk.headers.get("content-disposition")).toMatch(
      /^attachment; filename="linklens-report-bulk-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expectShareHeaders(bulk.headers);
    expect(bulk.text.split("\r\n").filter(Boolean)).toHaveLength(BULK + 1);
    const audit = await page(`/r/${tokens.audit}/export.csv`);
    expect(audit.text).toContain(`"'=SUM(1,2)"`);
    const tag = await page(`/r/${tokens.tag}/export.csv`);
    expect(tag.text).not.toContain("SECRET");
    expect(tag.text.split("\r\n")[0]).toBe(
      "page_url,target_url,match,state,verdict,verdict_reasons,last_checked_at,live_percent_90d",
    );
  });

  it("unknown, truncated, extended, altered and revoked tokens all get the same 404 page (and CSV 404)", async () => {
    const token = tokens.tag;
    const altered = `${token.slice(0, 5)}${token[5] === "x" ? "y" : "x"}${token.slice(6)}`;
    const probes = [
      token.slice(0, -1),
      `${token}x`,
      `${token}%20`,
      altered,
      "A".repeat(32),
      "nothing",
      tokens.revoked,
      `${token}%2F`,
      encodeURIComponent(`${token}\u0000`),
    ];
    let body: string | null = null;
    for (const probe of probes) {
      const answer = await page(`/r/${probe}`);
      expect(answer.status, probe).toBe(404);
      expectShareHeaders(answer.headers);
      expect(answer.text).toContain("This report is not available");
      expect(answer.text).not.toMatch(SCRIPT_MARKUP);
      // The 404 reads the same whichever token it was (only the per-request ids differ).
      const normalized = answer.text.replace(/[A-Za-z0-9_-]{20,}/g, "");
      body ??= normalized;
      const csv = await page(`/r/${probe}/export.csv`);
      expect(csv.status, `${probe} csv`).toBe(404);
      expectShareHeaders(csv.headers);
    }
    expect(body).toContain("mistyped, or it was revoked or has expired");
    // No token at all: no report route, still never indexed nor cached.
    for (const path of ["/r", "/r/"]) {
      const answer = await page(path);
      expect(answer.status, path).toBe(404);
      expectShareHeaders(answer.headers);
      expect(answer.text).not.toMatch(SCRIPT_MARKUP);
    }
  });

  it("the server's output never holds a token or its hash, while its request log still shows every visit", async () => {
    const unknown = "U".repeat(32);
    const resetToken = "ResetTokenResetTokenResetToken01";
    const visits: Array<[string, number]> = [
      [`/r/${tokens.tag}`, 200],
      [`/r/${tokens.tag}?page=1`, 200],
      [`/r/${tokens.tag}/export.csv`, 200],
      [`/r/${unknown}`, 404],
      [`/r/${unknown}/export.csv`, 404],
      [`/r/${tokens.revoked}`, 404],
      [`/r/${tokens.revoked}/export.csv`, 404],
      [`/r/${tokens.monitor}/nothing-here`, 404],
    ];
    for (const [path, status] of visits) expect((await page(path)).status, path).toBe(status);
    // Better Auth's reset link carries its token in the path too.
    expect((await page(`/api/auth/reset-password/${resetToken}?callbackURL=%2Freset-password`)).status).toBeLessThan(
      500,
    );
    // The request log line is written when the answer closes: wait for the last visit's (a deadline, not a pause).
    for (
      const deadline = Date.now() + 15_000;
      !server.output().includes('"path":"/api/auth/reset-password/[redacted]"') && Date.now() < deadline;
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines
      .filter((line) => line.msg === "request")
      .map((line) => `${String(line.path)} ${String(line.status)}`);
    for (const expected of [
      `/r/[redacted] 200`,
      `/r/[redacted]/export.csv 200`,
      `/r/[redacted] 404`,
      `/r/[redacted]/export.csv 404`,
      `/r/[redacted]/nothing-here 404`,
    ])
      expect(requests).toContain(expected);
    expect(requests.some((line) => line.startsWith("/api/auth/reset-password/[redacted] "))).toBe(true);
    const output = server.output();
    for (const secret of [...Object.values(tokens), unknown, resetToken]) {
      expect(output, secret).not.toContain(secret);
      expect(output, `hash of ${secret}`).not.toContain(hashToken(secret));
    }
  });
});
