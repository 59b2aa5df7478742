import { describe, expect, it } from "vitest";
import { parseAnalyzeRequest } from "@/lib/api/analyze-request";
import { ApiError } from "@/lib/errors";
import { readPasteBody, type PasteBodyRead } from "@/lib/analyzer/worker/paste-body";
import { parseJsonBytes } from "@/lib/http/read-body";
import { MAX_JSON_DEPTH } from "@/lib/limits";

/**
 * The worker's reading of a paste body (lib/analyzer/worker/paste-body.ts), one row per rule, and its contract
 * with the API: whatever it refuses, the API's own validation refuses on what it hands back (so the
 * answer is the error it always was), and whatever it analyses, the API accepts with the same domain.
 */

const RULES = { maxHtmlBytes: 100, defaultDomain: "example.com" };
const LIMITS = { maxHtmlBytes: RULES.maxHtmlBytes, allowPrivateHosts: [] };
const bytes = (text: string) => new TextEncoder().encode(text);

const cases: Array<[string, string, PasteBodyRead["kind"], string | null]> = [
  ["html and domain", JSON.stringify({ html: "<a href=/x>x</a>", domain: "Example.ORG" }), "paste", "example.org"],
  ["html only: the default domain", JSON.stringify({ html: "<p>hi</p>" }), "paste", "example.com"],
  ["an IDN domain, to punycode", JSON.stringify({ html: "x", domain: "bücher.de" }), "paste", "xn--bcher-kva.de"],
  ["domain first, html second", JSON.stringify({ domain: "a.test", html: "x" }), "paste", "a.test"],
  ["html exactly at the cap", JSON.stringify({ html: "é".repeat(50) }), "paste", "example.com"],
  ["not JSON", '{"html": "x"', "invalid-json", null],
  ["an array", "[1, 2]", "refused", null],
  ["a string", '"<a href=/>"', "refused", null],
  ["html not a string", JSON.stringify({ html: 5 }), "refused", null],
  ["url and html", JSON.stringify({ url: "https://example.com/", html: "x" }), "refused", null],
  ["an extra field", JSON.stringify({ html: "x", extra: 1 }), "refused", null],
  ["a __proto__ field", '{"html": "x", "__proto__": {"domain": "evil.test"}}', "refused", null],
  ["domain not a string", JSON.stringify({ html: "x", domain: 7 }), "refused", null],
  ["domain null", JSON.stringify({ html: "x", domain: null }), "refused", null],
  ["domain with a path", JSON.stringify({ html: "x", domain: "example.com/x" }), "refused", null],
  ["domain with a port", JSON.stringify({ html: "x", domain: "example.com:8080" }), "refused", null],
  ["html over the cap by one byte (multibyte)", JSON.stringify({ html: `${"é".repeat(50)}a` }), "refused", null],
  // Nested too deep: neither parsed nor handed back (a value 100,000 levels deep overflowed the structured clone back).
  [
    "an array nested one level too deep",
    `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`,
    "too-deep",
    null,
  ],
  ["an array 100,000 levels deep", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, "too-deep", null],
  [
    "html beside a domain 100,000 levels deep",
    `{"html":"<a href=/x>x</a>","domain":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`,
    "too-deep",
    null,
  ],
  [
    "html nested at the limit is refused whole",
    `{"html":${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}}`,
    "refused",
    null,
  ],
];

function apiError(fn: () => unknown): string {
  try {
    fn();
    return "accepted";
  } catch (error) {
    return error instanceof ApiError ? `${error.status} ${error.code} ${error.message}` : "other";
  }
}

describe("readPasteBody", () => {
  it.each(cases)("%s → %s", (_name, body, kind, domain) => {
    const read = readPasteBody(bytes(body), RULES);
    expect(read.kind).toBe(kind);
    const classic = () => parseAnalyzeRequest(parseJsonBytes(bytes(body)), LIMITS);
    // Too deep: the API answers what its own reading of a small body answers.
    if (read.kind === "too-deep")
      expect(apiError(classic)).toBe(
        `400 INVALID_REQUEST The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
      );
    if (read.kind === "paste") {
      expect(read.domain).toBe(domain);
      expect(read.htmlBytes).toBe(Buffer.byteLength((JSON.parse(body) as { html: string }).html));
      // The API accepts the skeleton and normalizes the domain the same way.
      const parsed = parseAnalyzeRequest(read.skeleton, { ...LIMITS, htmlBytes: read.htmlBytes });
      expect(parsed).toEqual({ mode: "paste", html: "", domain });
    }
    if (read.kind === "refused") {
      // What the worker hands back fails the API's validation exactly as the whole body does.
      const handedBack = apiError(() =>
        parseAnalyzeRequest(read.body, { ...LIMITS, htmlBytes: read.htmlBytes ?? undefined }),
      );
      expect(handedBack).not.toBe("accepted");
      expect(handedBack).toBe(apiError(classic));
      if (read.htmlBytes !== null) expect((read.body as { html: string }).html).toBe("");
    }
  });
});
