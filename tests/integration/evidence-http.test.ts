import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { startPostgres, type PostgresServer } from "../helpers/postgres";
import { ERROR_KEYS, startServer, type RunningServer } from "../helpers/server";
import { pdfInfo, pdfText } from "../helpers/pdf-text";

/**
 * Evidence over HTTP against the production build (`npm run build` first), on the embedded PGlite and on
 * PostgreSQL: every route of evidence-and-reports.md's "Evidence" through the real server, with a page of
 * the local fixture site rendered by a real Chromium. The hostile page's HTML comes back byte for byte
 * but only ever as a text/plain attachment; the PNG and the PDF are checked as real files (signature,
 * size, the PDF's text through poppler's pdftotext).
 */

const SECRET = "evidence-http-secret-evidence-http-000000";
const HOSTILE = (target: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Guest post</title></head><body><h1>Guest post</h1><p>Our pick: <a href="${target}">Acme running shoes</a>.</p><script>document.title = "ran"</script><img src=x onerror="alert(1)"></body></html>`;

let site: FixtureSite;
let postgres: PostgresServer | undefined;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
  await postgres?.stop();
});

interface Session {
  cookie: string;
}

describe.each(["pglite", "postgres"] as const)("evidence over HTTP (%s)", (backend) => {
  let server: RunningServer;
  let owner: Session;
  let stranger: Session;
  const page = `/evidence-http/${backend}`;
  let monitorId = "";
  let linkId = "";
  let recordId = "";
  let sha = "";

  const url = (path: string) => `${server.baseUrl}${path}`;
  async function request(session: Session, method: string, path: string) {
    const response = await fetch(url(path), {
      method,
      headers: { cookie: session.cookie, ...(method === "GET" ? {} : { origin: server.baseUrl }) },
    });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }
  async function api(session: Session, method: string, path: string, body?: unknown) {
    const response = await fetch(url(path), {
      method,
      headers: {
        cookie: session.cookie,
        ...(method === "GET" ? {} : { origin: server.baseUrl }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
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
      body: JSON.stringify({ email, password: "correct horse battery", name: "Ada" }),
    });
    expect(response.status).toBe(200);
    return {
      cookie: response.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; "),
    };
  }

  beforeAll(async () => {
    const env: Record<string, string> = {
      MONITOR_SCHEDULER: "off",
      ALLOW_PRIVATE_HOSTS: site.allowEntry,
      LINK_CHECK_TIMEOUT_MS: "3000",
    };
    if (backend === "postgres") {
      postgres ??= await startPostgres();
      Object.assign(env, { DATABASE_URL: await postgres.createDatabase(), BETTER_AUTH_SECRET: SECRET });
    }
    server = await startServer(env);
    owner = await signUp(`ada-${backend}@example.com`);
    stranger = await signUp(`eve-${backend}@example.com`);
    const target = site.url(`${page}/shoes`);
    site.setPage(`${page}/shoes`, { body: "<!doctype html><title>Shoes</title>shoes" });
    site.setPage(page, { body: HOSTILE(target) });
    sha = createHash("sha256")
      .update(Buffer.from(HOSTILE(target), "utf8"))
      .digest("hex");
    const created = await api(owner, "POST", "/api/account/monitors", { url: site.url(page), links: [{ target }] });
    expect(created.status, created.text).toBe(201);
    monitorId = String(created.json?.id);
    linkId = String((created.json?.links as Array<{ id: string }>)[0]?.id);
    const checked = await api(owner, "POST", `/api/account/monitors/${monitorId}/check`);
    expect(checked.status, checked.text).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("a check that finds the link keeps first_live evidence: listed, and read by id", async () => {
    const list = await api(owner, "GET", `/api/account/links/${linkId}/evidence`);
    expect(list.status, list.text).toBe(200);
    const items = list.json?.items as Array<Record<string, unknown>>;
    expect(items).toHaveLength(1);
    expect(list.json?.nextCursor).toBeNull();
    expect(items[0]).toMatchObject({
      reason: "first_live",
      httpStatus: 200,
      htmlSha256: sha,
      link: { anchorText: "Acme running shoes" },
      verdict: { value: "counts" },
      screenshot: { width: 1280 },
    });
    recordId = String(items[0]?.id);
    const one = await api(owner, "GET", `/api/account/evidence/${recordId}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(items[0]);
  });

  it("serves the PNG, the page's bytes as a text/plain attachment that is never rendered, and a one-page PDF with the URL and the hash", async () => {
    const png = await request(owner, "GET", `/api/account/evidence/${recordId}/screenshot.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.body.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(png.body.readUInt32BE(16)).toBe(1280);
    expect(png.body.length).toBeLessThanOrEqual(2 * 1024 * 1024);

    const html = await request(owner, "GET", `/api/account/evidence/${recordId}/page.html`);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(html.headers.get("content-disposition")).toMatch(/^attachment; filename="evidence-[0-9a-f-]+-page\.html"$/);
    expect(html.headers.get("x-content-type-options")).toBe("nosniff");
    expect(createHash("sha256").update(html.body).digest("hex")).toBe(sha);

    const pdf = await request(owner, "GET", `/api/account/evidence/${recordId}/report.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(pdf.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.body.length).toBeGreaterThan(10_000);
    const text = pdfText(pdf.body);
    expect(text).toContain(site.url(page));
    expect(text).toContain(sha);
    expect(text).toContain("Acme running shoes");
    expect(pdfInfo(pdf.body)).toMatch(/Pages:\s+1\b/);
  });

  it("captures on request (201, manual), and a page error answers the analyzer's code and stores nothing", async () => {
    const captured = await api(owner, "POST", `/api/account/monitors/${monitorId}/evidence`);
    expect(captured.status, captured.text).toBe(201);
    expect(captured.json?.items).toMatchObject([
      { reason: "manual", checkId: null, trackedLinkId: linkId, htmlSha256: sha },
    ]);
    site.setPage(page, { status: 503, body: "maintenance" });
    try {
      const failed = await api(owner, "POST", `/api/account/monitors/${monitorId}/evidence`);
      expect(failed.status).toBe(502);
      expect(Object.keys(failed.json ?? {}).sort()).toEqual(ERROR_KEYS);
      expect(failed.json?.errorCode).toBe("UPSTREAM_ERROR");
      expect(failed.text).not.toContain("maintenance");
    } finally {
      site.setPage(page, { body: HOSTILE(site.url(`${page}/shoes`)) });
    }
    const list = await api(owner, "GET", `/api/account/links/${linkId}/evidence`);
    expect((list.json?.items as unknown[]).length).toBe(2);
  });

  it("another organization's ids are 404 on every evidence route", async () => {
    for (const [method, path] of [
      ["GET", `/api/account/evidence/${recordId}`],
      ["GET", `/api/account/evidence/${recordId}/screenshot.png`],
      ["GET", `/api/account/evidence/${recordId}/page.html`],
      ["GET", `/api/account/evidence/${recordId}/report.pdf`],
      ["GET", `/api/account/links/${linkId}/evidence`],
      ["POST", `/api/account/monitors/${monitorId}/evidence`],
    ] as const) {
      const result = await api(stranger, method, path);
      expect(result.status, path).toBe(404);
      expect(result.json?.errorCode).toBe("NOT_FOUND");
    }
  });
});
