import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoAnalyzeSuccessSchema, ErrorSchema } from "../../lib/api/schemas";
import { startCanary, type Canary } from "../helpers/canary";
import { OTHER_SCHEME_REDIRECTS, startFixtureSite, type FixtureSite } from "../../scripts/lib/fixture-site";
import { BROWSER_UA, ERROR_KEYS, startServer, type RunningServer } from "../../scripts/lib/server-process";
import { DECLARATIVE_BODY, DECLARATIVE_ORDER, SCRIPTED_ORDER } from "../../scripts/lib/capture-pages";

/**
 * URL mode end to end over HTTP: the production server renders pages of a local fixture site (allowed
 * through ALLOW_PRIVATE_HOSTS), checks their links, and maps every failure to its status and errorCode.
 */

let server: RunningServer;
let site: http.Server;
let origin: string;
let canary: Canary;
/** The shared fixture site, for its redirects to other schemes. */
let fixtures: FixtureSite;

function page(body: string, head = ""): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>fixture</title>${head}</head><body>${body}</body></html>`;
}

beforeAll(async () => {
  canary = await startCanary();
  site = http.createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "Content-Type": "text/html; charset=utf-8", ...headers });
      response.end(request.method === "HEAD" ? undefined : body);
    };
    switch (path) {
      case "/audit":
        return send(
          200,
          page(
            `<nav><a href="/ok">Home page</a> <a href="/moved" rel="nofollow">Moved</a></nav>
             <a href="/gone">Gone</a><a href="/forbidden" rel="sponsored ugc">Forbidden</a><a href="/broken">Broken</a>
             <a href="/ok#section">Same target</a><a href="#top">Top</a><a href="mailto:a@b.c">Mail</a>
             <a href="https://unresolvable.invalid/"><img src="/logo.png" alt="Partner logo"></a>
             <noscript><a href="/noscript-only">no script</a></noscript>
             <script>const a = document.createElement('a'); a.href = '/added-by-script'; a.textContent = 'Added'; document.body.append(a);</script>`,
            // With scripting on this is text; a scripting-off parser would move the link into <body>.
            '<noscript><a href="/head-noscript">head noscript</a></noscript>',
          ),
        );
      case "/ok":
      case "/added-by-script":
        return send(200, page("ok"));
      case "/moved":
        response.writeHead(301, { Location: "/ok" });
        return response.end();
      case "/gone":
        return send(410, page("gone"));
      case "/forbidden":
        return send(403, page("no"));
      case "/broken":
        return send(500, page("oops"));
      case "/redirect-to-canary":
        response.writeHead(302, { Location: `${canary.origin}/x` });
        return response.end();
      case "/redirect-to-file":
        response.writeHead(302, { Location: "file:///etc/passwd" });
        return response.end();
      case "/not-found":
        return send(404, page("missing"));
      case "/unavailable":
        return send(503, page("down"));
      case "/pdf":
        response.writeHead(200, { "Content-Type": "application/pdf" });
        return response.end("%PDF-1.4\n");
      case "/robots":
        return send(200, page('<a href="/ok">x</a>'), { "X-Robots-Tag": "nofollow" });
      default:
        return send(404, page("missing"));
    }
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const port = (site.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  fixtures = await startFixtureSite();
  server = await startServer({
    ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port},${fixtures.allowEntry}`,
    RATE_LIMIT_PER_MINUTE: "1000",
    RENDER_TIMEOUT_MS: "8000",
    LINK_CHECK_TIMEOUT_MS: "2000",
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => site?.close(resolve));
  await canary?.close();
  await fixtures?.close();
});

async function analyze(url: string) {
  const response = await fetch(`${server.baseUrl}/api/demo/analyze`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "User-Agent": BROWSER_UA },
    body: JSON.stringify({ url }),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as unknown };
}

async function expectFailure(url: string, status: number, errorCode: string) {
  const result = await analyze(url);
  expect(result.status, result.text).toBe(status);
  expect(Object.keys(result.json as object).sort()).toEqual(ERROR_KEYS);
  expect(ErrorSchema.parse(result.json).errorCode).toBe(errorCode);
}

describe("URL mode over HTTP", () => {
  it("renders the page, captures script-added links, checks statuses and counts broken links", async () => {
    const result = await analyze(`${origin}/audit`);
    expect(result.status, result.text).toBe(200);
    const body = DemoAnalyzeSuccessSchema.parse(result.json);
    expect(body.url).toBe(`${origin}/audit`);
    expect(body.domain).toBe("127.0.0.1");
    const rows = body.links.map((link) => [
      link.position,
      link.href,
      link.linkType,
      link.httpStatus,
      link.isNofollow,
      link.isSponsored,
      link.isUgc,
      link.isImage,
      link.anchorText,
    ]);
    expect(rows).toEqual([
      [1, `${origin}/ok`, "internal", 200, false, false, false, false, "Home page"],
      [2, `${origin}/moved`, "internal", 200, true, false, false, false, "Moved"],
      [3, `${origin}/gone`, "internal", 410, false, false, false, false, "Gone"],
      [4, `${origin}/forbidden`, "internal", 403, false, true, true, false, "Forbidden"],
      [5, `${origin}/broken`, "internal", 500, false, false, false, false, "Broken"],
      [6, `${origin}/ok#section`, "internal", 200, false, false, false, false, "Same target"],
      [7, `${origin}/audit#top`, "ignored", null, false, false, false, false, "Top"],
      [8, "mailto:a@b.c", "ignored", null, false, false, false, false, "Mail"],
      [9, "https://unresolvable.invalid/", "external", 0, false, false, false, true, "Partner logo"],
      [10, `${origin}/added-by-script`, "internal", 200, false, false, false, false, "Added"],
    ]);
    expect(body.stats).toEqual({
      total: 10,
      internal: 7,
      external: 1,
      ignored: 2,
      follow: 6,
      nofollow: 1,
      sponsored: 1,
      ugc: 1,
      broken: 3,
    });
    expect(body.sanitizedHtml).not.toMatch(/<script/i);
    expect(body.sanitizedHtml).toContain('data-linklens-position="10"');
  });

  it("honours X-Robots-Tag: nofollow on every link", async () => {
    const result = await analyze(`${origin}/robots`);
    expect(result.status, result.text).toBe(200);
    const body = DemoAnalyzeSuccessSchema.parse(result.json);
    expect(body.links.map((link) => link.isNofollow)).toEqual([true]);
    expect(body.stats.nofollow).toBe(1);
    expect(body.stats.follow).toBe(0);
  });

  it("answers a 404 page and a non-HTML page with 422 UNPROCESSABLE_PAGE", async () => {
    await expectFailure(`${origin}/not-found`, 422, "UNPROCESSABLE_PAGE");
    await expectFailure(`${origin}/pdf`, 422, "UNPROCESSABLE_PAGE");
  });

  it("answers a 503 page, an unresolvable host and a refused connection with 502 UPSTREAM_ERROR", async () => {
    await expectFailure(`${origin}/unavailable`, 502, "UPSTREAM_ERROR");
    await expectFailure("https://does-not-exist.invalid/", 502, "UPSTREAM_ERROR");
  });

  it("blocks a host name that resolves to a non-public address (403 BLOCKED_URL)", async () => {
    // The machine's own host name resolves (through /etc/hosts) to a loopback or private address.
    await expectFailure(`http://${os.hostname()}/`, 403, "BLOCKED_URL");
  });

  it("blocks redirects to a non-public address or a non-http(s) scheme (403 BLOCKED_REDIRECT)", async () => {
    await expectFailure(`${origin}/redirect-to-canary`, 403, "BLOCKED_REDIRECT");
    await expectFailure(`${origin}/redirect-to-file`, 403, "BLOCKED_REDIRECT");
    expect(canary.requests(), canary.hits().join("\n")).toBe(0);
    expect(canary.connections()).toBe(0);
  });

  it.each(Object.entries(OTHER_SCHEME_REDIRECTS))(
    "blocks %s (a redirect to %j) with 403 BLOCKED_REDIRECT",
    async (path) => {
      await expectFailure(fixtures.url(path), 403, "BLOCKED_REDIRECT");
    },
  );
});

describe("what Google captures, over HTTP (google-view.md §1)", () => {
  /** The names of the capture page's links (scripts/lib/capture-pages.ts), in position order, and the snapshot. */
  function captured(json: unknown) {
    const body = DemoAnalyzeSuccessSchema.parse(json);
    const names = body.links.flatMap((link) => {
      const path = new URL(link.href).pathname;
      return path.startsWith("/capture-link/") ? [path.slice("/capture-link/".length)] : [];
    });
    return { body, names };
  }

  it("URL mode: a link loaded when its place comes into view, 3,200 px down, is captured; a scroll-event loader's is not", async () => {
    const observer = await analyze(fixtures.url("/capture/lazy/observer"));
    expect(observer.status, observer.text).toBe(200);
    expect(captured(observer.json).names).toEqual(["top", "observer-scheduled", "observer-fetched"]);
    const scroll = await analyze(fixtures.url("/capture/lazy/scroll-loader"));
    expect(captured(scroll.json).names).toEqual(["top", "observer-control"]);
  });

  it("URL mode: shadow-root links in flattened order, each in the snapshot with its position; the Link shape is unchanged", async () => {
    for (const [path, order] of [
      ["/capture/shadow/declarative", DECLARATIVE_ORDER],
      ["/capture/shadow/scripted", SCRIPTED_ORDER],
    ] as const) {
      const result = await analyze(fixtures.url(path));
      expect(result.status, result.text).toBe(200);
      const { body, names } = captured(result.json);
      expect(names, path).toEqual(order);
      expect(body.links.map((link) => link.position)).toEqual(body.links.map((_, index) => index + 1));
      for (const link of body.links)
        expect(body.sanitizedHtml).toMatch(
          new RegExp(`<a href="${new URL(link.href).pathname}"[^>]* data-linklens-position="${link.position}">`),
        );
    }
  });

  it("paste mode: declarative shadow roots are parsed as shadow roots, in flattened order", async () => {
    const response = await fetch(`${server.baseUrl}/api/demo/analyze`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": BROWSER_UA },
      body: JSON.stringify({ html: page(DECLARATIVE_BODY), domain: "example.com" }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const { body, names } = captured(JSON.parse(text));
    expect(names).toEqual(DECLARATIVE_ORDER);
    expect(body.sanitizedHtml).not.toMatch(/<template|shadowrootmode/);
  });
});
