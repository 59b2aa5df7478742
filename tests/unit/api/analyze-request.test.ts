import { describe, expect, it } from "vitest";
import { parseAnalyzeRequest } from "../../../lib/api/analyze-request";
import { ApiError } from "../../../lib/errors";
import { normalizePasteDomain } from "../../../lib/api/paste-request-domain";

const limits = { maxHtmlBytes: 100, allowPrivateHosts: ["127.0.0.1:4000"] };

function codeOf(body: unknown): string {
  try {
    parseAnalyzeRequest(body, limits);
    return "OK";
  } catch (error) {
    return error instanceof ApiError ? error.code : "THREW";
  }
}

describe("parseAnalyzeRequest", () => {
  it.each([
    [[], "INVALID_REQUEST"],
    [null, "INVALID_REQUEST"],
    ["x", "INVALID_REQUEST"],
    [{}, "INVALID_REQUEST"],
    [{ url: "https://example.com/", html: "" }, "INVALID_REQUEST"],
    [{ url: "https://example.com/", extra: 1 }, "INVALID_REQUEST"],
    [{ url: 5 }, "INVALID_REQUEST"],
    [{ html: 5 }, "INVALID_REQUEST"],
    [{ html: "", domain: null }, "INVALID_REQUEST"],
    [{ url: "notaurl" }, "INVALID_URL"],
    [{ url: "http://192.168.0.1/" }, "INVALID_URL"],
    [{ html: "é".repeat(51) }, "PAYLOAD_TOO_LARGE"],
    [{ html: "é".repeat(50) }, "OK"],
    [{ url: "https://example.com/" }, "OK"],
    [{ url: "http://127.0.0.1:4000/page" }, "OK"],
  ])("%j → %s", (body, code) => {
    expect(codeOf(body)).toBe(code);
  });

  it("returns the normalized shapes", () => {
    expect(parseAnalyzeRequest({ html: "<a>", domain: "WWW.Example.com." }, limits)).toEqual({
      mode: "paste",
      html: "<a>",
      domain: "www.example.com",
    });
    const parsed = parseAnalyzeRequest({ url: "HTTPS://Example.com/a b" }, limits);
    expect(parsed.mode === "url" && parsed.url.href).toBe("https://example.com/a%20b");
  });
});

describe("normalizePasteDomain", () => {
  it.each([
    [undefined, "example.com"],
    ["Example.COM", "example.com"],
    [" blog.example.co.uk ", "blog.example.co.uk"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["192.168.0.1", "192.168.0.1"],
  ])("%s → %s", (input, expected) => {
    expect(normalizePasteDomain(input)).toBe(expected);
  });

  it.each([
    "",
    " ",
    "https://example.com",
    "example.com/path",
    "example.com:8080",
    "user@example.com",
    "a..b",
    "exa mple.com",
    "x".repeat(64) + ".com",
    "[::1]",
  ])("rejects %j", (input) => {
    expect(() => normalizePasteDomain(input)).toThrow(ApiError);
  });
});
