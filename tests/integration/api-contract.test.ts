import { Validator } from "@seriousme/openapi-schema-validator";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiIndexSchema,
  DemoAnalyzeSuccessSchema,
  ErrorSchema,
  HealthSchema,
  ProductSchema,
} from "../../lib/api/schemas";
import { ERROR_CODES, ERRORS } from "../../lib/errors";
import { BROWSER_UA, ERROR_KEYS, startServer, type RunningServer } from "../../scripts/lib/server-process";

let server: RunningServer;
const MAX_HTML_BYTES = 4096;

beforeAll(async () => {
  server = await startServer({ RATE_LIMIT_PER_MINUTE: "100000", MAX_HTML_BYTES: String(MAX_HTML_BYTES) });
});
afterAll(async () => {
  await server?.stop();
});

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, { redirect: "manual", ...init });
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON; the assertions say so
  }
  return { response, text, json, status: response.status, headers: response.headers };
}

/** Sends the path byte for byte (fetch would normalize "%2e%2e" and friends before sending). */
function rawCall(
  method: string,
  path: string,
  body?: string,
  extraHeaders: Record<string, string> = {},
): Promise<Awaited<ReturnType<typeof call>>> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...(body ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) } : {}),
      ...extraHeaders,
    };
    const request = http.request({ host: "127.0.0.1", port: server.port, method, path, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        let json: unknown = undefined;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers))
          if (typeof value === "string") headers.set(name, value);
        resolve({ response: new Response(null), text, json, status: response.statusCode ?? 0, headers });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

function expectError(result: Awaited<ReturnType<typeof call>>, status: number, errorCode: string) {
  const context = `${status} ${errorCode} expected, got ${result.status}: ${result.text.slice(0, 500)}`;
  expect(result.status, context).toBe(status);
  expect(result.headers.get("content-type"), context).toMatch(/^application\/json/);
  expect(Object.keys(result.json as object).sort(), context).toEqual(ERROR_KEYS);
  const body = ErrorSchema.parse(result.json);
  expect(body.errorCode, context).toBe(errorCode);
  expect(body.docs).toBe(`${server.baseUrl}/docs#error-${errorCode}`);
  expect(body.error.length).toBeGreaterThan(0);
  expect(body.hint.length).toBeGreaterThan(0);
  expect(result.text).not.toMatch(/at \w+ \(|node_modules|\/work\//);
}

describe("discovery routes", () => {
  it("GET /api/v1 lists the five operations with absolute document URLs", async () => {
    const { status, json, headers } = await call("/api/v1");
    expect(status).toBe(200);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    const index = ApiIndexSchema.parse(json);
    expect(index.name).toBe("LinkLens");
    expect(index.version).toBe("1.0.0");
    expect(index.openapi).toBe(`${server.baseUrl}/openapi.json`);
    expect(index.llmsTxt).toBe(`${server.baseUrl}/llms.txt`);
    expect(index.docs).toBe(`${server.baseUrl}/docs`);
    expect(index.operations.map((op) => `${op.method} ${op.path} ${op.operationId}`).sort()).toEqual([
      "GET /api/v1 listPublicApi",
      "GET /api/v1/health getHealth",
      "GET /api/v1/product getProduct",
      "GET /openapi.json getOpenApiSpec",
      "POST /api/demo/analyze analyzePublicDemo",
    ]);
  });

  it("GET /api/v1/health is exactly {status:ok, service:linklens}", async () => {
    const { status, json } = await call("/api/v1/health");
    expect(status).toBe(200);
    expect(HealthSchema.parse(json)).toEqual({ status: "ok", service: "linklens" });
  });

  it("GET /api/v1/product has real content and every howToCall label", async () => {
    const { status, json } = await call("/api/v1/product");
    expect(status).toBe(200);
    const product = ProductSchema.parse(json);
    expect(product.whenToUse.length).toBeGreaterThan(1);
    expect(product.whenNotToUse.join(" ")).toMatch(/backlink index/i);
    expect(Object.keys(product.howToCall)).toEqual(
      expect.arrayContaining(["product", "health", "demoAnalyze", "openapi", "llmsText"]),
    );
    expect(product.contact).toMatch(/@/);
  });

  it("GET /openapi.json is a valid OpenAPI 3.1 document generated from the schemas", async () => {
    const { status, json, headers } = await call("/openapi.json");
    expect(status).toBe(200);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    const doc = json as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            responses: Record<string, unknown>;
            requestBody?: { content: Record<string, { examples?: object }> };
          }
        >
      >;
    };
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.sort()).toEqual(["analyzePublicDemo", "getHealth", "getOpenApiSpec", "getProduct", "listPublicApi"]);
    const analyze = doc.paths["/api/demo/analyze"]?.post;
    expect(Object.keys(analyze?.responses ?? {}).sort()).toEqual([
      "200",
      "400",
      "403",
      "405",
      "413",
      "422",
      "429",
      "502",
    ]);
    expect(Object.keys(analyze?.requestBody?.content["application/json"]?.examples ?? {}).sort()).toEqual([
      "pasteMode",
      "urlMode",
    ]);
    expect(JSON.stringify(analyze?.responses["429"])).toContain("X-RateLimit-Reset");
  });

  it("GET /llms.txt is a plain-text guide in llmstxt.org layout", async () => {
    const { status, text, headers } = await call("/llms.txt");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^text\/plain/);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(text.startsWith("# LinkLens\n\n> ")).toBe(true);
    for (const needle of [
      "/api/demo/analyze",
      "/openapi.json",
      "RATE_LIMITED",
      "BOT_DETECTED",
      "X-RateLimit-Reset",
      "## Limits",
      "## Errors",
    ]) {
      expect(text).toContain(needle);
    }
  });

  it("GET /docs documents every operation and error code", async () => {
    const { status, text } = await call("/docs");
    expect(status).toBe(200);
    for (const needle of [
      "analyzePublicDemo",
      "getHealth",
      "PAYLOAD_TOO_LARGE",
      "UNPROCESSABLE_PAGE",
      "curl",
      "X-RateLimit-Reset",
      "matchedGroupName",
    ]) {
      expect(text).toContain(needle);
    }
    // Every code has the row an Error body's docs link points at; the page has the site's navigation.
    for (const code of ERROR_CODES) {
      if (ERRORS[code].public) expect(text).toContain(`id="error-${code}"`);
      // docs/spec/account-api.md: nothing of the signed-in product in the public description.
      else expect(text).not.toContain(code);
    }
    expect(text).toContain('aria-label="Developer resources"');
  });

  const forgedHosts = ["evil.example/<script>", "a b", "evil.example:99999", "evil..example"];
  for (const host of forgedHosts) {
    it(`never reflects the forged Host ${JSON.stringify(host)} into an Error body`, async () => {
      const answers = [
        await rawCall("GET", "/api/nope", undefined, { Host: host }),
        await rawCall("TRACE", "/api/v1", undefined, { Host: host }),
        await rawCall("POST", "/api/demo/analyze", "{", { Host: host }),
      ];
      for (const answer of answers) {
        const body = ErrorSchema.parse(answer.json);
        expect(body.docs, answer.text).toBe(`${server.baseUrl}/docs#error-${body.errorCode}`);
        expect(answer.text).not.toContain("evil");
        expect(answer.text).not.toContain(host);
      }
    });
  }

  it("answers CORS preflight on the GET routes but not on the analyzer", async () => {
    for (const path of ["/api/v1", "/api/v1/health", "/api/v1/product", "/openapi.json", "/llms.txt"]) {
      const { status, headers } = await call(path, {
        method: "OPTIONS",
        headers: { Origin: "https://tool.example", "Access-Control-Request-Method": "GET" },
      });
      expect(status, path).toBe(204);
      expect(headers.get("access-control-allow-origin"), path).toBe("*");
      expect(headers.get("access-control-allow-methods"), path).toContain("GET");
    }
    const analyze = await call("/api/demo/analyze", {
      method: "POST",
      headers: { Origin: "https://tool.example", "Content-Type": "application/json" },
      body: '{"html":""}',
    });
    expect(analyze.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("HEAD on a GET route answers 200 without a body", async () => {
    const { status, text } = await call("/api/v1/health", { method: "HEAD" });
    expect(status).toBe(200);
    expect(text).toBe("");
  });
});

describe("unknown paths and wrong methods", () => {
  const unknown = [
    "/api",
    "/api/",
    "/api/v2",
    "/api/v1/healthz",
    "/api/v1/health/extra",
    "/api/demo",
    "/api/demo/analyze/x",
    "/api/%",
    "/api/%E0%A4%A",
    "/api/..%2f..%2fetc%2fpasswd",
    "/api/v1/%00",
    "/api/%2e%2e/v1",
    "/api/v1/./health/..",
    "/api/v1\\health",
    "/api/v1%2fhealth",
    "/api/v1/product;jsessionid=1",
    "/api/" + "a".repeat(3000),
  ];
  for (const path of unknown) {
    for (const method of ["GET", "POST", "DELETE"]) {
      it(`${method} ${path.slice(0, 60)} → 404 NOT_FOUND`, async () => {
        expectError(await rawCall(method, path, method === "GET" ? undefined : "{}"), 404, "NOT_FOUND");
      });
    }
  }

  const oddMethods: [string, string, number, string | null][] = [
    ["TRACE", "/api/v1", 405, "GET, HEAD, OPTIONS"],
    ["PROPFIND", "/api/demo/analyze", 405, "POST"],
    ["QUERY", "/openapi.json", 405, "GET, HEAD, OPTIONS"],
    ["TRACE", "/api/nope", 404, null],
    ["MKCOL", "/api/v1/health", 405, "GET, HEAD, OPTIONS"],
  ];
  for (const [method, path, status, allow] of oddMethods) {
    it(`${method} ${path} → ${status} as an Error body`, async () => {
      const result = await rawCall(method, path);
      expectError(result, status, status === 405 ? "METHOD_NOT_ALLOWED" : "NOT_FOUND");
      expect(result.headers.get("allow")).toBe(allow);
    });
  }

  const wrongMethods: [string, string, string][] = [
    ["POST", "/api/v1", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/v1/health", "GET, HEAD, OPTIONS"],
    ["DELETE", "/api/v1/product", "GET, HEAD, OPTIONS"],
    ["PATCH", "/openapi.json", "GET, HEAD, OPTIONS"],
    ["POST", "/llms.txt", "GET, HEAD, OPTIONS"],
    ["GET", "/api/demo/analyze", "POST"],
    ["PUT", "/api/demo/analyze", "POST"],
    ["DELETE", "/api/demo/analyze", "POST"],
    ["OPTIONS", "/api/demo/analyze", "POST"],
  ];
  for (const [method, path, allow] of wrongMethods) {
    it(`${method} ${path} → 405 with Allow: ${allow}`, async () => {
      const result = await call(path, { method });
      expectError(result, 405, "METHOD_NOT_ALLOWED");
      expect(result.headers.get("allow")).toBe(allow);
    });
  }
});

describe("POST /api/demo/analyze input errors", () => {
  const json = { "Content-Type": "application/json", "User-Agent": BROWSER_UA };
  const cases: { name: string; body: string; headers?: Record<string, string>; status: number; code: string }[] = [
    { name: "invalid JSON", body: "{nope", status: 400, code: "INVALID_REQUEST" },
    { name: "empty body", body: "", status: 400, code: "INVALID_REQUEST" },
    {
      name: "wrong content type",
      body: '{"html":"<a href=/x>x</a>"}',
      headers: { "Content-Type": "text/plain" },
      status: 400,
      code: "INVALID_REQUEST",
    },
    {
      name: "no content type",
      body: '{"html":"x"}',
      headers: { "Content-Type": "" },
      status: 400,
      code: "INVALID_REQUEST",
    },
    { name: "array", body: "[]", status: 400, code: "INVALID_REQUEST" },
    { name: "null", body: "null", status: 400, code: "INVALID_REQUEST" },
    { name: "number", body: "42", status: 400, code: "INVALID_REQUEST" },
    { name: "string", body: '"https://example.com"', status: 400, code: "INVALID_REQUEST" },
    { name: "empty object", body: "{}", status: 400, code: "INVALID_REQUEST" },
    { name: "both shapes", body: '{"url":"https://example.com/","html":"x"}', status: 400, code: "INVALID_REQUEST" },
    {
      name: "extra field in url mode",
      body: '{"url":"https://example.com/","depth":2}',
      status: 400,
      code: "INVALID_REQUEST",
    },
    { name: "extra field in paste mode", body: '{"html":"x","save":true}', status: 400, code: "INVALID_REQUEST" },
    { name: "url not a string", body: '{"url":42}', status: 400, code: "INVALID_REQUEST" },
    { name: "url null", body: '{"url":null}', status: 400, code: "INVALID_REQUEST" },
    { name: "html not a string", body: '{"html":["<a>"]}', status: 400, code: "INVALID_REQUEST" },
    { name: "domain not a string", body: '{"html":"x","domain":1}', status: 400, code: "INVALID_REQUEST" },
    { name: "domain with a path", body: '{"html":"x","domain":"example.com/x"}', status: 400, code: "INVALID_REQUEST" },
    {
      name: "domain with a scheme",
      body: '{"html":"x","domain":"https://example.com"}',
      status: 400,
      code: "INVALID_REQUEST",
    },
    { name: "empty domain", body: '{"html":"x","domain":""}', status: 400, code: "INVALID_REQUEST" },
    { name: "domain with spaces", body: '{"html":"x","domain":"exa mple.com"}', status: 400, code: "INVALID_REQUEST" },
    { name: "empty url", body: '{"url":""}', status: 400, code: "INVALID_URL" },
    { name: "relative url", body: '{"url":"/page"}', status: 400, code: "INVALID_URL" },
    { name: "ftp url", body: '{"url":"ftp://example.com/"}', status: 400, code: "INVALID_URL" },
    { name: "javascript url", body: '{"url":"javascript:alert(1)"}', status: 400, code: "INVALID_URL" },
    { name: "credentials", body: '{"url":"https://user:pass@example.com/"}', status: 400, code: "INVALID_URL" },
    { name: "port 8080", body: '{"url":"https://example.com:8080/"}', status: 400, code: "INVALID_URL" },
    { name: "localhost", body: '{"url":"http://localhost/"}', status: 400, code: "INVALID_URL" },
    { name: "loopback IP", body: '{"url":"http://127.0.0.1/"}', status: 400, code: "INVALID_URL" },
    { name: "decimal loopback", body: '{"url":"http://2130706433/"}', status: 400, code: "INVALID_URL" },
    { name: "private IP", body: '{"url":"http://10.0.0.1/"}', status: 400, code: "INVALID_URL" },
    {
      name: "metadata IP",
      body: '{"url":"http://169.254.169.254/latest/meta-data/"}',
      status: 400,
      code: "INVALID_URL",
    },
    { name: "IPv6 loopback", body: '{"url":"http://[::1]/"}', status: 400, code: "INVALID_URL" },
    { name: "*.internal", body: '{"url":"http://metadata.google.internal/"}', status: 400, code: "INVALID_URL" },
    {
      name: "too long",
      body: JSON.stringify({ url: `https://example.com/${"a".repeat(2100)}` }),
      status: 400,
      code: "INVALID_URL",
    },
    {
      name: "html over MAX_HTML_BYTES",
      body: JSON.stringify({ html: "é".repeat(MAX_HTML_BYTES) }),
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
    },
    {
      name: "body over the cap",
      body: JSON.stringify({ html: "x".repeat(MAX_HTML_BYTES + 70 * 1024) }),
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
    },
    {
      name: "no User-Agent in URL mode",
      body: '{"url":"https://example.com/"}',
      headers: { "User-Agent": "" },
      status: 403,
      code: "BOT_DETECTED",
    },
    {
      name: "curl in URL mode",
      body: '{"url":"https://example.com/"}',
      headers: { "User-Agent": "curl/8.5.0" },
      status: 403,
      code: "BOT_DETECTED",
    },
  ];
  for (const testCase of cases) {
    it(`${testCase.name} → ${testCase.status} ${testCase.code}`, async () => {
      const headers = { ...json, ...testCase.headers };
      const result = await call("/api/demo/analyze", { method: "POST", headers, body: testCase.body });
      expectError(result, testCase.status, testCase.code);
      expect(result.headers.get("x-ratelimit-limit")).toBe("100000");
      expect(result.headers.get("cache-control")).toBe("no-store");
    });
  }

  it("paste mode answers a strict DemoAnalyzeSuccess, also for a bot User-Agent", async () => {
    const html = '<a href="/about">About</a><a href="https://other.org/" rel="nofollow">Other</a>';
    const result = await call("/api/demo/analyze", {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "curl/8" },
      body: JSON.stringify({ html, domain: "Example.COM" }),
    });
    expect(result.status, result.text).toBe(200);
    const body = DemoAnalyzeSuccessSchema.parse(result.json);
    expect(body.domain).toBe("example.com");
    expect(body.url).toBe("https://example.com/");
    expect(body.links.map((link) => [link.href, link.linkType, link.isNofollow, link.httpStatus])).toEqual([
      ["https://example.com/about", "internal", false, null],
      ["https://other.org/", "external", true, null],
    ]);
    expect(body.stats).toMatchObject({ total: 2, internal: 1, external: 1, follow: 1, nofollow: 1, broken: 0 });
  });

  it("paste mode normalizes an IDN domain to punycode and defaults to example.com", async () => {
    const idn = await call("/api/demo/analyze", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ html: "<p>hi</p>", domain: "Bücher.example" }),
    });
    expect(idn.status, idn.text).toBe(200);
    expect(DemoAnalyzeSuccessSchema.parse(idn.json).domain).toBe("xn--bcher-kva.example");
    const plain = await call("/api/demo/analyze", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ html: "<p>hi</p>" }),
    });
    expect(DemoAnalyzeSuccessSchema.parse(plain.json).url).toBe("https://example.com/");
  });
});
