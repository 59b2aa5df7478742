import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoAnalyzeSuccessSchema, ErrorSchema } from "../../lib/api/schemas";
import { ERROR_KEYS, startServer, type RunningServer } from "../../scripts/lib/server-process";

/**
 * Property-based requests to the analyzer: whatever arrives, only statuses from the spec come back,
 * every non-200 is exactly the Error shape, and the server never answers 500.
 */

const SPEC_STATUSES = new Set([200, 400, 403, 404, 405, 413, 422, 429, 502]);
const MAX_HTML_BYTES = 20_000;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    RATE_LIMIT_PER_MINUTE: "1000000",
    MAX_HTML_BYTES: String(MAX_HTML_BYTES),
    LINK_CHECK_TIMEOUT_MS: "1000",
    RENDER_TIMEOUT_MS: "3000",
  });
});
afterAll(async () => {
  await server?.stop();
});

interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
}

function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        method,
        path,
        headers: { ...headers, ...(body ? { "Content-Length": String(body.length) } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function assertContract(answer: RawAnswer, method: string): void {
  const context = `${answer.status}: ${answer.text.slice(0, 300)}`;
  expect(SPEC_STATUSES.has(answer.status), context).toBe(true);
  if (method === "HEAD") return;
  expect(answer.contentType, context).toMatch(/^application\/json/);
  const json = JSON.parse(answer.text) as object;
  if (answer.status === 200) {
    DemoAnalyzeSuccessSchema.parse(json);
  } else {
    expect(Object.keys(json).sort(), context).toEqual(ERROR_KEYS);
    ErrorSchema.parse(json);
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const urlish = fc.oneof(
  fc.string(),
  fc.webUrl({ withFragments: true, withQueryParameters: true }),
  fc.constantFrom(
    "http://127.0.0.1/",
    "http://[::ffff:7f00:1]/",
    "http://0x7f.1/",
    "file:///etc/passwd",
    "https://example.com:22/",
    "http://a:b@example.com/",
    "http://localhost./",
    "https://xn--/",
    "https://exa%00mple.com/",
  ),
);
const htmlish = fc.oneof(
  fc.string({ maxLength: 2000 }),
  fc
    .array(
      fc.constantFrom(
        "<a href='/x'>",
        "</a>",
        "<area href=#>",
        "<base href='//evil.test/'>",
        "<template>",
        "<svg><a href='javascript:1'>",
        "<noscript>",
        "&amp;",
        "<meta name=robots content=nofollow>",
        "<img alt=x>",
        "<!--",
        "<![CDATA[",
      ),
      { maxLength: 200 },
    )
    .map((parts) => parts.join("")),
);
const body = fc.oneof(
  jsonValue,
  fc.record({ url: urlish }),
  fc.record(
    { html: htmlish, domain: fc.option(fc.oneof(fc.domain(), fc.string()), { nil: undefined }) },
    { requiredKeys: ["html"] },
  ),
  fc.record({ url: jsonValue, html: jsonValue, extra: jsonValue }, { requiredKeys: [] }),
);

describe("analyzer fuzz", () => {
  it("answers random JSON bodies with spec statuses and exact Error shapes", async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom("Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36", "curl/8", ""),
        async (value, userAgent) => {
          const answer = await send(
            "POST",
            "/api/demo/analyze",
            { "Content-Type": "application/json", "User-Agent": userAgent },
            Buffer.from(JSON.stringify(value) ?? "null"),
          );
          assertContract(answer, "POST");
        },
      ),
      { numRuns: 250 },
    );
  });

  it("answers random methods, headers and raw bytes without a 500", async () => {
    const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
    const contentType = fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "",
      "APPLICATION/JSON",
    );
    const raw = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }).map((bytes) => Buffer.from(bytes)),
      fc.string().map((text) => Buffer.from(text)),
    );
    await fc.assert(
      fc.asyncProperty(method, contentType, raw, fc.string({ maxLength: 40 }), async (verb, type, bytes, forwarded) => {
        const headers: Record<string, string> = {
          "User-Agent": "Mozilla/5.0 Chrome/131.0",
          "X-Forwarded-For": forwarded.replace(/[^\x20-\x7e]/g, ""),
        };
        if (type) headers["Content-Type"] = type;
        const answer = await send(
          verb,
          "/api/demo/analyze",
          headers,
          verb === "GET" || verb === "HEAD" ? undefined : bytes,
        );
        assertContract(answer, verb);
      }),
      { numRuns: 200 },
    );
  });

  it("refuses huge and truncated bodies cleanly", async () => {
    const huge = Buffer.alloc(MAX_HTML_BYTES + 200 * 1024, "a");
    const tooLarge = await send(
      "POST",
      "/api/demo/analyze",
      { "Content-Type": "application/json" },
      Buffer.concat([Buffer.from('{"html":"'), huge, Buffer.from('"}')]),
    );
    expect(tooLarge.status).toBe(413);
    assertContract(tooLarge, "POST");
    const truncated = await send(
      "POST",
      "/api/demo/analyze",
      { "Content-Type": "application/json" },
      Buffer.from('{"html":"<a href=x>'),
    );
    expect(truncated.status).toBe(400);
    assertContract(truncated, "POST");
    const health = await send("GET", "/api/v1/health", {});
    expect(health.status).toBe(200);
    expect(server.output()).not.toMatch(/"level":50/);
  });
});
