import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiIndexSchema, ErrorSchema, ProductSchema } from "../../lib/api/schemas";
import { MCP_TOOLS } from "../../lib/api/mcp-catalog";
import { CRAWLER_AGENTS } from "../../lib/schemas/crawlers";
import { BROWSER_UA, ERROR_KEYS, startServer, type RunningServer } from "../helpers/server";
import { startFixtureSite, type FixtureSite } from "../../scripts/lib/fixture-site";

/**
 * The MCP endpoint of the production build, driven by the SDK's own client over Streamable HTTP.
 * The client sends Node's default User-Agent ("node"), which the HTTP API's bot check refuses: URL mode
 * working here is the documented MCP bot policy, not an accident.
 */

interface FixtureServer {
  origin: string;
  allowEntry: string;
  close: () => Promise<void>;
}

/** A tiny site on 127.0.0.1: a post with a nofollow placement, a 404 link and a script-added link. */
async function startFixture(): Promise<FixtureServer> {
  const page = (body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`;
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://fixture").pathname;
    if (path === "/post") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        page(`<p><a href="/landing" rel="nofollow">Landing page</a> <a href="/missing">Gone</a> <a href="mailto:editor@example.com">Mail</a></p>
<script>window.addEventListener('load', () => { const a = document.createElement('a'); a.href = '/landing?from=script'; a.textContent = 'Added by script'; document.body.appendChild(a); });</script>`),
      );
    } else if (path === "/landing") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(page("landing"));
    } else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    allowEntry: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function connect(server: RunningServer): Promise<Client> {
  const client = new Client({ name: "linklens-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function texts(result: CallToolResult): string[] {
  return result.content.map((block) => (block.type === "text" ? block.text : `<${block.type}>`));
}

/** A successful tool result: structuredContent, a one-line summary, then the same JSON as text. */
function success<T>(result: CallToolResult): T {
  const context = JSON.stringify(result).slice(0, 1500);
  expect(result.isError ?? false, context).toBe(false);
  expect(result.structuredContent, context).toBeDefined();
  expect(texts(result)).toHaveLength(2);
  expect(JSON.parse(texts(result)[1] ?? "")).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

interface ToolErrorBody {
  success: false;
  error: string;
  errorCode: string;
  hint: string;
  docs: string;
  retryAfterSeconds?: number;
  retryAt?: string;
}

/** A tool error with the HTTP API's Error body (plus retry fields for RATE_LIMITED), never internals. */
function toolError(result: CallToolResult, errorCode: string): ToolErrorBody {
  const context = JSON.stringify(result).slice(0, 1500);
  expect(result.isError, context).toBe(true);
  const body = result.structuredContent as unknown as ToolErrorBody;
  const { retryAfterSeconds, retryAt, ...errorBody } = body;
  expect(Object.keys(errorBody).sort(), context).toEqual(ERROR_KEYS);
  ErrorSchema.parse(errorBody);
  expect(body.errorCode, context).toBe(errorCode);
  if (errorCode !== "RATE_LIMITED")
    expect({ retryAfterSeconds, retryAt }).toEqual({ retryAfterSeconds: undefined, retryAt: undefined });
  expect(texts(result)[0], context).toContain(`${errorCode}: ${body.error}`);
  expect(texts(result)[0], context).toContain(body.hint);
  expect(context).not.toMatch(/at \w+ \(|node_modules|\/work\//);
  return body;
}

async function postAnalyze(server: RunningServer, body: unknown, userAgent = BROWSER_UA) {
  const response = await fetch(`${server.baseUrl}/api/demo/analyze`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "User-Agent": userAgent },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as unknown };
}

interface Link {
  href: string;
  position: number;
  linkType: string;
  anchorText: string | null;
  isNofollow: boolean;
  isSponsored: boolean;
  isUgc: boolean;
  isImage: boolean;
  httpStatus: number | null;
}
interface Analysis {
  success: true;
  url: string;
  domain: string;
  stats: Record<string, number>;
  links: Link[];
  sanitizedHtml?: string;
}
interface FoundLink extends Link {
  followed: boolean;
  signals: { inRawHtml: boolean | null; hidden: boolean | null; region: string | null; inGoogleView: boolean | null };
}
interface FindLinkResult {
  found: boolean;
  target: string;
  match: string;
  url: string;
  linksOnPage: number;
  matches: FoundLink[];
  verdict: { position: number; value: string; reasons: string[] } | null;
  page: Record<string, unknown>;
  sameHostLinks?: FoundLink[];
  summary: string;
}

const MAX_HTML_BYTES = 200_000;

const PLACEMENTS_HTML = `<p>Read <a href="https://mysite.example/product?ref=1#buy" rel="nofollow">My product</a>.</p>
<a href="https://www.mysite.example/blog/">The blog</a>
<a href="https://shop.mysite.example/cart" rel="sponsored ugc"><img src="logo.png" alt="Shop logo"></a>
<a href="https://other.example/">Other</a>
<a href="mailto:me@mysite.example">Mail</a>
<a href="/about">About us</a>`;

/** The tool's error is the HTTP API's Error body for the same URL, field for field. */
async function expectSameErrorAsHttp(
  server: RunningServer,
  viaMcp: { error: string; errorCode: string; hint: string; docs: string },
  url: string,
): Promise<void> {
  const viaHttp = ErrorSchema.parse((await postAnalyze(server, { url })).json);
  expect({ error: viaMcp.error, errorCode: viaMcp.errorCode, hint: viaMcp.hint, docs: viaMcp.docs }, url).toEqual({
    error: viaHttp.error,
    errorCode: viaHttp.errorCode,
    hint: viaHttp.hint,
    docs: viaHttp.docs,
  });
}

describe("MCP endpoint: tools, results and errors", () => {
  let server: RunningServer;
  let fixture: FixtureServer;
  /** The shared fixture site, for its redirects to other schemes. */
  let site: FixtureSite;
  let client: Client;

  beforeAll(async () => {
    fixture = await startFixture();
    site = await startFixtureSite();
    server = await startServer({
      ALLOW_PRIVATE_HOSTS: `${fixture.allowEntry},${site.allowEntry}`,
      RATE_LIMIT_PER_MINUTE: "1000",
      MAX_HTML_BYTES: String(MAX_HTML_BYTES),
      LINK_CHECK_TIMEOUT_MS: "3000",
    });
    client = await connect(server);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await fixture?.close();
    await site?.close();
  });

  it("lists the three tools with strict input schemas and descriptions that state the cost", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(MCP_TOOLS.map((tool) => tool.name).sort());
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const expected: Record<string, { required: string[]; properties: string[] }> = {
      analyze_page: { required: ["url"], properties: ["includeSnapshot", "url"] },
      analyze_html: { required: ["html"], properties: ["domain", "html", "includeSnapshot"] },
      find_link: { required: ["target"], properties: ["domain", "html", "match", "target", "url"] },
    };
    for (const [name, shape] of Object.entries(expected)) {
      const tool = byName.get(name);
      expect(tool, name).toBeDefined();
      expect(tool?.inputSchema.type).toBe("object");
      expect((tool?.inputSchema.required ?? []).slice().sort(), name).toEqual(shape.required);
      expect(Object.keys(tool?.inputSchema.properties ?? {}).sort(), name).toEqual(shape.properties);
      expect((tool?.inputSchema as { additionalProperties?: unknown }).additionalProperties, name).toBe(false);
      expect(tool?.description, name).toMatch(/Cost:/);
      expect(tool?.description, name).toContain("1000 calls per minute");
      expect(tool?.annotations?.readOnlyHint, name).toBe(true);
    }
    expect(byName.get("analyze_page")?.description).toMatch(/monthly budget of 1000 URL renders/);
    expect(byName.get("analyze_html")?.description).toContain("200,000 UTF-8 bytes");
    expect(client.getInstructions()).toMatch(/find_link/);
  });

  it("analyze_page renders a fixture page for an automated client: links, statuses, stats, no snapshot by default", async () => {
    // The same client on the HTTP API is refused as a bot: MCP URL mode is deliberately not bot-checked.
    const refused = await postAnalyze(server, { url: `${fixture.origin}/post` }, "node");
    expect(refused.status, refused.text).toBe(403);
    expect(ErrorSchema.parse(refused.json).errorCode).toBe("BOT_DETECTED");

    const result = await call(client, "analyze_page", { url: `${fixture.origin}/post` });
    const analysis = success<Analysis>(result);
    expect(Object.keys(analysis).sort()).toEqual(["domain", "links", "stats", "success", "url"]);
    expect(analysis.url).toBe(`${fixture.origin}/post`);
    expect(
      analysis.links.map((link) => [link.position, link.href, link.linkType, link.isNofollow, link.httpStatus]),
    ).toEqual([
      [1, `${fixture.origin}/landing`, "internal", true, 200],
      [2, `${fixture.origin}/missing`, "internal", false, 404],
      [3, "mailto:editor@example.com", "ignored", false, null],
      [4, `${fixture.origin}/landing?from=script`, "internal", false, 200],
    ]);
    expect(analysis.stats).toEqual({
      total: 4,
      internal: 3,
      external: 0,
      ignored: 1,
      follow: 2,
      nofollow: 1,
      sponsored: 0,
      ugc: 0,
      broken: 1,
    });
    expect(texts(result)[0]).toBe(
      `${fixture.origin}/post: 4 links (3 internal, 0 external, 1 ignored); 2 follow, 1 nofollow, 0 sponsored, 0 ugc; 1 broken.`,
    );
  });

  it("analyze_html classifies pasted HTML against the given domain; includeSnapshot opts in to the snapshot", async () => {
    const compact = success<Analysis>(
      await call(client, "analyze_html", { html: PLACEMENTS_HTML, domain: "Publisher.EXAMPLE" }),
    );
    expect(compact.url).toBe("https://publisher.example/");
    expect(compact.sanitizedHtml).toBeUndefined();
    expect(compact.stats).toEqual({
      total: 6,
      internal: 1,
      external: 4,
      ignored: 1,
      follow: 3,
      nofollow: 1,
      sponsored: 1,
      ugc: 1,
      broken: 0,
    });
    expect(compact.links.every((link) => link.httpStatus === null)).toBe(true);
    expect(compact.links[5]).toMatchObject({
      href: "https://publisher.example/about",
      linkType: "internal",
      anchorText: "About us",
    });

    const full = success<Analysis>(
      await call(client, "analyze_html", { html: PLACEMENTS_HTML, includeSnapshot: true }),
    );
    expect(full.url).toBe("https://example.com/");
    expect(full.sanitizedHtml).toContain('data-linklens-position="3"');
    expect(full.links).toEqual(
      compact.links.map((link) => (link.position === 6 ? { ...link, href: "https://example.com/about" } : link)),
    );
  });

  it("find_link verifies placements in pasted HTML: exact, domain and prefix matches, nofollow and not found", async () => {
    const find = async (args: Record<string, unknown>) =>
      success<FindLinkResult>(
        await call(client, "find_link", { html: PLACEMENTS_HTML, domain: "publisher.example", ...args }),
      );

    // Exact (the default for a URL with a path): the #fragment is ignored; the placement is nofollow.
    const exact = await find({ target: "https://mysite.example/product?ref=1" });
    expect(exact).toMatchObject({ found: true, match: "exact", linksOnPage: 6 });
    expect(exact.matches).toHaveLength(1);
    expect(exact.matches[0]).toMatchObject({
      position: 1,
      anchorText: "My product",
      isNofollow: true,
      followed: false,
      httpStatus: null,
    });
    expect(exact.summary).toMatch(
      /^Found 1 link\(s\) .* 0 followed, 1 not followed\. First at position 1: .*nofollow, anchor "My product"/,
    );

    // Exact ignores http/https, a leading www. and a trailing slash; this one is followed.
    const followed = await find({ target: "http://mysite.example/blog" });
    expect(followed.matches.map((link) => [link.position, link.followed])).toEqual([[2, true]]);

    // A bare domain defaults to domain matching, subdomains included; mailto: never matches.
    const domain = await find({ target: "mysite.example" });
    expect(domain.match).toBe("domain");
    expect(domain.matches.map((link) => link.position)).toEqual([1, 2, 3]);
    expect(domain.matches[2]).toMatchObject({
      isSponsored: true,
      isUgc: true,
      isImage: true,
      anchorText: "Shop logo",
      followed: false,
    });

    const prefix = await find({ target: "https://mysite.example/product", match: "prefix" });
    expect(prefix.matches.map((link) => link.position)).toEqual([1]);

    // Not found: a clear verdict, with the links that do point at the target's host.
    const missing = await find({ target: "https://mysite.example/pricing" });
    expect(missing).toMatchObject({ found: false, matches: [] });
    expect(missing.summary).toMatch(/^Not found: none of the 6 links/);
    expect(missing.sameHostLinks?.map((link) => link.position)).toEqual([1, 2, 3]);
    const absent = await find({ target: "absent.example" });
    expect(absent).toMatchObject({ found: false, match: "domain", matches: [], sameHostLinks: [] });
  });

  it("find_link with url renders the page and reports the placement's status", async () => {
    const result = success<FindLinkResult>(
      await call(client, "find_link", { url: `${fixture.origin}/post`, target: `${fixture.origin}/landing` }),
    );
    expect(result).toMatchObject({ found: true, match: "exact", url: `${fixture.origin}/post`, linksOnPage: 4 });
    expect(result.matches).toEqual([
      expect.objectContaining({
        position: 1,
        anchorText: "Landing page",
        linkType: "internal",
        isNofollow: true,
        followed: false,
        httpStatus: 200,
      }),
    ]);
  });

  it("find_link says whether the placement counts: signals on every match, the best match's verdict with reasons", async () => {
    const target = site.url("/p/verdict-target");
    const many = success<FindLinkResult>(
      await call(client, "find_link", { url: site.url("/verdict/many-reasons"), target }),
    );
    // Added by script into the footer, nofollow, on a noindex page.
    expect(many.matches).toEqual([
      expect.objectContaining({
        isNofollow: true,
        signals: { inRawHtml: false, hidden: false, region: "footer", inGoogleView: true },
      }),
    ]);
    expect(many.verdict).toEqual({
      position: many.matches[0]?.position,
      value: "does_not_count",
      reasons: ["nofollow", "page_noindex", "script_only", "boilerplate_region"],
    });
    expect(many.page).toMatchObject({
      noindex: true,
      noindexSource: "meta",
      robotsTxt: "allowed",
      finalUrl: site.url("/verdict/many-reasons"),
    });
    expect(many.summary).toContain("Verdict (best match, position");
    expect(many.summary).toContain(
      "Doesn't count — Link is nofollow; Page is set to noindex; Link only present after JavaScript; Link in a header, navigation, sidebar or footer.",
    );

    // Two matches: the footer one comes first, the one in the text counts and is the best match.
    const two = success<FindLinkResult>(
      await call(client, "find_link", { url: site.url("/verdict/two-matches"), target }),
    );
    expect(two.matches.map((link) => link.signals.region)).toEqual(["footer", "main"]);
    expect(two.verdict).toEqual({ position: two.matches[1]?.position, value: "counts", reasons: [] });

    // Hidden by CSS, on a page robots.txt keeps Googlebot out of, and a page that redirects.
    expect(
      success<FindLinkResult>(
        await call(client, "find_link", { url: site.url("/verdict/hidden/display-none"), target }),
      ).verdict,
    ).toMatchObject({ value: "does_not_count", reasons: ["hidden"] });
    expect(
      success<FindLinkResult>(await call(client, "find_link", { url: site.url("/verdict/robots-disallowed"), target }))
        .verdict,
    ).toMatchObject({ reasons: ["robots_disallowed"] });
    expect(
      success<FindLinkResult>(await call(client, "find_link", { url: site.url("/verdict/redirect"), target })).verdict,
    ).toMatchObject({ value: "at_risk", reasons: ["page_redirected"] });

    // With html: nothing rendered or fetched, so inRawHtml and hidden are null; the region is read.
    const pasted = success<FindLinkResult>(
      await call(client, "find_link", {
        html: `<footer><a href="https://mysite.example/">me</a></footer>`,
        target: "mysite.example",
      }),
    );
    expect(pasted.matches[0]?.signals).toEqual({ inRawHtml: null, hidden: null, region: "footer", inGoogleView: null });
    expect(pasted.verdict).toEqual({ position: 1, value: "at_risk", reasons: ["boilerplate_region"] });
    expect(pasted.page).toMatchObject({ finalUrl: null, robotsTxt: null });
  });

  it("find_link's page carries crawler access: each agent's robots.txt answer, in the one order; null with html", async () => {
    const { tools } = await client.listTools();
    const description = tools.find((tool) => tool.name === "find_link")?.description ?? "";
    expect(description).toContain(`page.crawlers says for each of ${CRAWLER_AGENTS.join(", ")}`);
    const result = success<FindLinkResult>(
      await call(client, "find_link", {
        url: site.url("/verdict/ai-crawlers-blocked"),
        target: site.url("/p/verdict-target"),
      }),
    );
    const crawlers = result.page.crawlers as Record<string, string>;
    expect(Object.keys(crawlers)).toEqual([...CRAWLER_AGENTS]);
    expect(crawlers).toEqual(
      Object.fromEntries(
        CRAWLER_AGENTS.map((agent) => [agent, agent === "GPTBot" || agent === "CCBot" ? "disallowed" : "allowed"]),
      ),
    );
    // Not a reason: the verdict is about Google, which may crawl the page.
    expect(result.page.robotsTxt).toBe("allowed");
    expect(result.verdict).toMatchObject({ value: "counts", reasons: [] });
    const pasted = success<FindLinkResult>(
      await call(client, "find_link", { html: `<a href="https://mysite.example/">me</a>`, target: "mysite.example" }),
    );
    expect(pasted.page.crawlers).toBeNull();
  });

  it("the public analyzer's links stay exactly the public Link: no signals", async () => {
    const analysis = success<Analysis>(await call(client, "analyze_page", { url: site.url("/verdict/many-reasons") }));
    expect(analysis.links.every((link) => !("signals" in link))).toBe(true);
  });

  it("refuses blocked and non-public URLs with the HTTP API's errorCode and hint", async () => {
    for (const [url, errorCode] of [
      [`http://${os.hostname()}/`, "BLOCKED_URL"],
      ["http://10.0.0.1/", "INVALID_URL"],
      ["ftp://example.com/", "INVALID_URL"],
    ] as const) {
      const viaMcp = toolError(await call(client, "analyze_page", { url }), errorCode);
      await expectSameErrorAsHttp(server, viaMcp, url);
    }
    toolError(
      await call(client, "find_link", { url: `http://${os.hostname()}/`, target: "mysite.example" }),
      "BLOCKED_URL",
    );
  });

  it("refuses a page that redirects to another scheme with BLOCKED_REDIRECT, as the HTTP API does", async () => {
    for (const path of ["/redirect-to/gopher", "/redirect-to/javascript", "/redirect-to/file"]) {
      const url = site.url(path);
      const viaMcp = toolError(await call(client, "analyze_page", { url }), "BLOCKED_REDIRECT");
      await expectSameErrorAsHttp(server, viaMcp, url);
    }
  });

  it("answers malformed arguments with errors, never a crash", async () => {
    // Schema violations are refused by the SDK before the tool runs (MCP: an error the model can correct).
    for (const [name, args, pattern] of [
      ["analyze_html", { html: 42 }, /Input validation error.*html/],
      ["analyze_page", {}, /Input validation error.*url/],
      ["analyze_page", { url: "https://example.com/", extra: true }, /Input validation error.*extra/],
      [
        "find_link",
        { html: "<a href='/'>x</a>", target: "x.example", match: "fuzzy" },
        /Input validation error.*match/,
      ],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, JSON.stringify(result)).toBe(true);
      expect(texts(result)[0], JSON.stringify(args)).toMatch(pattern);
    }
    // What the tools check themselves carries the API's errorCode.
    toolError(
      await call(client, "find_link", { html: "<a href='/'>x</a>", url: "https://example.com/", target: "x.example" }),
      "INVALID_REQUEST",
    );
    toolError(await call(client, "find_link", { target: "x.example" }), "INVALID_REQUEST");
    toolError(
      await call(client, "find_link", { url: "https://example.com/", domain: "example.com", target: "x.example" }),
      "INVALID_REQUEST",
    );
    expect(
      toolError(
        await call(client, "find_link", { html: "<a href='/'>x</a>", target: "mailto:me@x.example" }),
        "INVALID_REQUEST",
      ).error,
    ).toMatch(/^target:/);
    toolError(
      await call(client, "analyze_html", { html: "<a href='/'>x</a>", domain: "https://bad/path" }),
      "INVALID_REQUEST",
    );
    toolError(await call(client, "analyze_html", { html: "x".repeat(MAX_HTML_BYTES + 1) }), "PAYLOAD_TOO_LARGE");
    expect(texts(await call(client, "no_such_tool", {}))[0]).toMatch(/no_such_tool not found/);
    // A body over the analyzer's cap (MAX_HTML_BYTES + 64 KiB) is refused by the transport before parsing.
    await expect(call(client, "analyze_html", { html: "x".repeat(MAX_HTML_BYTES + 70_000) })).rejects.toThrow(
      `Payload Too Large: Request body must not exceed ${MAX_HTML_BYTES + 64 * 1024} bytes`,
    );

    // A structurally invalid request is a JSON-RPC error.
    const protocolError = await client
      .request({ method: "tools/call", params: { name: 123 } } as never, CallToolResultSchema)
      .catch((error: unknown) => error);
    expect(protocolError).toBeInstanceOf(McpError);
    expect((protocolError as McpError).message).toMatch(/params.*name|name.*expected string/s);

    // Raw HTTP: a broken JSON body and a missing Accept are JSON-RPC errors with 4xx statuses.
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const broken = await fetch(`${server.baseUrl}/mcp`, { method: "POST", headers, body: "{not json" });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const noAccept = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(noAccept.status).toBe(406);

    // And the endpoint still works.
    success<Analysis>(await call(client, "analyze_html", { html: "<a href='https://example.org/'>ok</a>" }));
    expect(server.output()).not.toMatch(/unexpected error|MCP request failed/);
  });

  it("answers GET, DELETE and other methods with 405 Allow: POST as a JSON-RPC error carrying the Error body", async () => {
    for (const [method, accept] of [
      ["GET", undefined],
      ["GET", "text/event-stream"],
      ["DELETE", undefined],
      ["PUT", undefined],
      ["OPTIONS", undefined],
    ] as const) {
      const response = await fetch(`${server.baseUrl}/mcp`, { method, headers: accept ? { Accept: accept } : {} });
      const text = await response.text();
      expect(response.status, `${method} ${text}`).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = JSON.parse(text) as {
        jsonrpc: string;
        id: null;
        error: { code: number; message: string; data: unknown };
      };
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
      expect(ErrorSchema.parse(body.error.data).errorCode).toBe("METHOD_NOT_ALLOWED");
    }
  });

  it("keeps /api/v1 and /openapi.json to the five public operations while the guides mention /mcp", async () => {
    const index = ApiIndexSchema.parse(await (await fetch(`${server.baseUrl}/api/v1`)).json());
    expect(index.operations.map((op) => op.path).sort()).toEqual([
      "/api/demo/analyze",
      "/api/v1",
      "/api/v1/health",
      "/api/v1/product",
      "/openapi.json",
    ]);
    const openapi = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.values(openapi.paths).flatMap((item) => Object.keys(item))).toHaveLength(5);
    expect(Object.keys(openapi.paths)).not.toContain("/mcp");

    const product = ProductSchema.parse(await (await fetch(`${server.baseUrl}/api/v1/product`)).json());
    expect(product.howToCall.mcp).toContain(`${server.baseUrl}/mcp`);
    const llms = await (await fetch(`${server.baseUrl}/llms.txt`)).text();
    expect(llms).toContain("## MCP server");
    expect(llms).toContain(`"url": "${server.baseUrl}/mcp"`);
    for (const tool of MCP_TOOLS) expect(llms).toContain(`- ${tool.name} ${tool.args}`);
    expect(llms).toMatch(/not bot-checked/);
    const docs = await (await fetch(`${server.baseUrl}/docs`)).text();
    expect(docs).toContain('id="mcp"');
    expect(docs).toContain("find_link");
  });
});

describe("MCP endpoint: limits shared with the HTTP API", () => {
  let server: RunningServer;
  let fixture: FixtureServer;
  let client: Client;

  beforeAll(async () => {
    fixture = await startFixture();
    server = await startServer({
      ALLOW_PRIVATE_HOSTS: fixture.allowEntry,
      RATE_LIMIT_PER_MINUTE: "4",
      DEMO_URL_MONTHLY_BUDGET: "1",
      LINK_CHECK_TIMEOUT_MS: "3000",
    });
    client = await connect(server);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await fixture?.close();
  });

  it("spends the monthly URL budget and the per-IP limit per tool call, and says when to retry", async () => {
    // 1: the budget's only render.
    success<Analysis>(await call(client, "analyze_page", { url: `${fixture.origin}/post` }));
    // 2: the budget is spent: RATE_LIMITED until the start of next month (UTC), paste mode suggested.
    const spent = toolError(
      await call(client, "find_link", { url: `${fixture.origin}/post`, target: `${fixture.origin}/landing` }),
      "RATE_LIMITED",
    );
    expect(spent.error).toMatch(/monthly budget/);
    expect(spent.hint).toMatch(/paste mode/i);
    const now = new Date();
    expect(spent.retryAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect(spent.retryAfterSeconds).toBeGreaterThan(0);
    // 3, 4: paste mode still works.
    success<FindLinkResult>(await call(client, "find_link", { html: PLACEMENTS_HTML, target: "mysite.example" }));
    success<Analysis>(await call(client, "analyze_html", { html: PLACEMENTS_HTML }));
    // 5: over the per-IP limit of 4 per minute.
    const before = Date.now();
    const limited = await call(client, "analyze_html", { html: PLACEMENTS_HTML });
    const body = toolError(limited, "RATE_LIMITED");
    expect(body.error).toMatch(/4 per minute/);
    expect(body.hint).toBe("Wait until the time in the X-RateLimit-Reset header (Unix seconds), then retry.");
    expect(body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(61);
    const retryAt = Date.parse(body.retryAt ?? "");
    expect(retryAt).toBeGreaterThan(before - 1000);
    expect(retryAt).toBeLessThanOrEqual(before + 61_000);
    expect(texts(limited)[0]).toMatch(/Retry after \d+ s \(at \d{4}-\d\d-\d\dT/);

    // Protocol messages are not analyses: listing tools still works.
    expect((await client.listTools()).tools).toHaveLength(3);
    // The HTTP API shares the bucket (same client key, same store).
    const http429 = await postAnalyze(server, { html: "<a href='/'>x</a>" });
    expect(http429.status, http429.text).toBe(429);
    expect(ErrorSchema.parse(http429.json).errorCode).toBe("RATE_LIMITED");
  });
});

describe("MCP endpoint: MCP_URL_MODE=off", () => {
  let server: RunningServer;
  let client: Client;

  beforeAll(async () => {
    server = await startServer({ MCP_URL_MODE: "off", RATE_LIMIT_PER_MINUTE: "1000" });
    client = await connect(server);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("refuses URL mode to MCP clients with BOT_DETECTED, says so in the descriptions, and keeps paste mode", async () => {
    const { tools } = await client.listTools();
    for (const name of ["analyze_page", "find_link"]) {
      expect(tools.find((tool) => tool.name === name)?.description, name).toMatch(
        /^URL mode is turned off on this server/,
      );
    }
    expect(tools.find((tool) => tool.name === "analyze_html")?.description).not.toMatch(/turned off/);

    const page = toolError(await call(client, "analyze_page", { url: "https://example.com/" }), "BOT_DETECTED");
    expect(page.hint).toMatch(/analyze_html/);
    toolError(await call(client, "find_link", { url: "https://example.com/", target: "example.org" }), "BOT_DETECTED");
    // The URL is still validated first: a bad one is INVALID_URL, as on the HTTP API.
    toolError(await call(client, "analyze_page", { url: "http://localhost/" }), "INVALID_URL");
    const found = success<FindLinkResult>(
      await call(client, "find_link", { html: PLACEMENTS_HTML, target: "other.example" }),
    );
    expect(found.matches.map((link) => link.position)).toEqual([4]);
    const llms = await (await fetch(`${server.baseUrl}/llms.txt`)).text();
    expect(llms).toContain("URL mode is turned off for MCP clients on this server");
    expect(llms).not.toMatch(/not bot-checked/);
  });
});
