import { describe, expect, it } from "vitest";
import { listenOrigin, logLevel, parseConfig } from "../../lib/config";

describe("parseConfig", () => {
  it("applies the defaults of decisions.md", () => {
    expect(parseConfig({})).toMatchObject({
      RATE_LIMIT_PER_MINUTE: 10,
      DEMO_URL_MONTHLY_BUDGET: 1000,
      MAX_HTML_BYTES: 2_097_152,
      RENDER_TIMEOUT_MS: 15_000,
      MAX_CONCURRENT_RENDERS: 2,
      LINK_CHECK_MAX: 100,
      LINK_CHECK_CONCURRENCY: 8,
      LINK_CHECK_TIMEOUT_MS: 5_000,
      ALLOW_PRIVATE_HOSTS: [],
      BOT_PROTECTION: "on",
      MCP_URL_MODE: "on",
      TRUSTED_PROXY_HOPS: 0,
    });
  });

  it("parses lists and switches", () => {
    const config = parseConfig({
      ALLOW_PRIVATE_HOSTS: "127.0.0.1:4000, Localhost:8080,[::1]:9000",
      BOT_PROTECTION: "OFF",
      TRUSTED_PROXY_HOPS: "2",
    });
    expect(config.ALLOW_PRIVATE_HOSTS).toEqual(["127.0.0.1:4000", "localhost:8080", "[::1]:9000"]);
    expect(config.BOT_PROTECTION).toBe("off");
    expect(config.TRUSTED_PROXY_HOPS).toBe(2);
  });

  it("defaults the analyzer's fairness knobs", () => {
    expect(parseConfig({}).ANALYSIS_CLIENT_BUDGET_MS).toBeUndefined();
    expect(parseConfig({}).ANALYSIS_JOBS_PER_CLIENT).toBe(1);
    expect(parseConfig({ ANALYSIS_CLIENT_BUDGET_MS: "90000", ANALYSIS_JOBS_PER_CLIENT: "3" })).toMatchObject({
      ANALYSIS_CLIENT_BUDGET_MS: 90_000,
      ANALYSIS_JOBS_PER_CLIENT: 3,
    });
    expect(() => parseConfig({ ANALYSIS_JOBS_PER_CLIENT: "0" })).toThrow(/ANALYSIS_JOBS_PER_CLIENT/);
  });

  it.each([
    ["unset: 60 (webhooks.md)", undefined, 60],
    ["whole seconds", "30", 30],
    ["a fraction, for tests", "0.005", 0.005],
  ])("WEBHOOK_RETRY_BASE_SECONDS %s", (_name, value, expected) => {
    expect(
      parseConfig(value === undefined ? {} : { WEBHOOK_RETRY_BASE_SECONDS: value }).WEBHOOK_RETRY_BASE_SECONDS,
    ).toBe(expected);
  });

  it.each(["0", "-1", "soon", "86401"])(
    "WEBHOOK_RETRY_BASE_SECONDS=%s stops the start with the variable named",
    (value) => {
      expect(() => parseConfig({ WEBHOOK_RETRY_BASE_SECONDS: value })).toThrow(/WEBHOOK_RETRY_BASE_SECONDS/);
    },
  );

  it("EVIDENCE_RETENTION_DAYS: 400 unset (evidence-and-reports.md), whole days, anything else stops the start", () => {
    expect(parseConfig({}).EVIDENCE_RETENTION_DAYS).toBe(400);
    expect(parseConfig({ EVIDENCE_RETENTION_DAYS: "30" }).EVIDENCE_RETENTION_DAYS).toBe(30);
    for (const value of ["0", "-5", "1.5", "forever"])
      expect(() => parseConfig({ EVIDENCE_RETENTION_DAYS: value })).toThrow(/EVIDENCE_RETENTION_DAYS/);
  });

  it("GOOGLE_VIEW_INTERVAL_HOURS: 24 unset (google-view.md §2), whole hours, anything else stops the start", () => {
    expect(parseConfig({}).GOOGLE_VIEW_INTERVAL_HOURS).toBe(24);
    expect(parseConfig({ GOOGLE_VIEW_INTERVAL_HOURS: "6" }).GOOGLE_VIEW_INTERVAL_HOURS).toBe(6);
    for (const value of ["0", "-1", "2.5", "daily"])
      expect(() => parseConfig({ GOOGLE_VIEW_INTERVAL_HOURS: value })).toThrow(/GOOGLE_VIEW_INTERVAL_HOURS/);
  });

  it("parses DENY_HOSTS into normalised host names", () => {
    expect(parseConfig({}).DENY_HOSTS).toEqual([]);
    expect(parseConfig({ DENY_HOSTS: " Example.COM, blog.example.org. ,bücher.example,[::1] " }).DENY_HOSTS).toEqual([
      "example.com",
      "blog.example.org",
      "xn--bcher-kva.example",
      "::1",
    ]);
  });

  it.each(["https://example.com", "example.com:443", "example.com/path", "user@example.com", "exa mple.com"])(
    "refuses DENY_HOSTS entry %s",
    (entry) => {
      expect(() => parseConfig({ DENY_HOSTS: `ok.example,${entry}` })).toThrow(/DENY_HOSTS/);
    },
  );

  it.each([
    ["RATE_LIMIT_PER_MINUTE", "ten"],
    ["RATE_LIMIT_PER_MINUTE", "0"],
    ["MAX_HTML_BYTES", "-5"],
    ["BOT_PROTECTION", "maybe"],
    ["MCP_URL_MODE", "sometimes"],
    ["ALLOW_PRIVATE_HOSTS", "127.0.0.1"],
    ["UPSTASH_REDIS_REST_URL", "not a url"],
    ["TRUSTED_PROXY_HOPS", "1.5"],
  ])("rejects %s=%s with a message naming it", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(name);
  });
});

describe("server settings (PORT, HOSTNAME, LOG_LEVEL)", () => {
  it("defaults to 0.0.0.0:3000 and info, reached as localhost", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOSTNAME: "0.0.0.0", LOG_LEVEL: "info" });
    expect(listenOrigin(config)).toBe("http://localhost:3000");
  });

  it("parses them like every other variable", () => {
    const config = parseConfig({ PORT: "8080", HOSTNAME: "127.0.0.1", LOG_LEVEL: "warn" });
    expect(listenOrigin(config)).toBe("http://127.0.0.1:8080");
    expect(listenOrigin(parseConfig({ HOSTNAME: "::1", PORT: "4000" }))).toBe("http://[::1]:4000");
    expect(config.LOG_LEVEL).toBe("warn");
  });

  it.each([
    ["PORT", "0"],
    ["PORT", "70000"],
    ["PORT", "http"],
    ["LOG_LEVEL", "loud"],
  ])("refuses %s=%s at start", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(name);
  });

  it("gives the logger a valid level even before the configuration is checked", () => {
    expect(logLevel({ LOG_LEVEL: "debug" })).toBe("debug");
    expect(logLevel({ LOG_LEVEL: "loud" })).toBe("info");
    expect(logLevel({})).toBe("info");
  });
});
