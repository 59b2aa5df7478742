import { describe, expect, it } from "vitest";
import { parseAnalyzeRequest } from "@/lib/api/analyze-request";
import { maxAnalyzeBodyBytes, readJsonBody } from "@/lib/http/read-body";
import { parseConfig } from "@/lib/config";
import { codeOf } from "../../helpers/error-code";

const MAX_HTML_BYTES = parseConfig({}).MAX_HTML_BYTES;
const limits = { maxHtmlBytes: MAX_HTML_BYTES, allowPrivateHosts: [] };

function post(body: string, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/demo/analyze", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** The route's two steps: the raw-body cap, then the decoded html limit. */
function accept(body: string): Promise<string> {
  return codeOf(
    readJsonBody(post(body), maxAnalyzeBodyBytes(MAX_HTML_BYTES)).then((parsed) => parseAnalyzeRequest(parsed, limits)),
  );
}

describe("the analyzer's body limit counts the decoded html", () => {
  it("accepts html of exactly MAX_HTML_BYTES however much JSON escaping inflates it", async () => {
    const quotes = JSON.stringify({ html: '"'.repeat(MAX_HTML_BYTES), domain: "example.com" });
    expect(quotes.length).toBeGreaterThan(MAX_HTML_BYTES + 64 * 1024);
    expect(await accept(quotes)).toBe("resolved");
    // Control characters are the worst case: six bytes of JSON for one byte of html.
    const controls = JSON.stringify({ html: "\u0001".repeat(MAX_HTML_BYTES), domain: "example.com" });
    expect(controls.length).toBeGreaterThan(6 * MAX_HTML_BYTES);
    expect(await accept(controls)).toBe("resolved");
  });

  it("refuses html one byte over MAX_HTML_BYTES with 413, escaped or not", async () => {
    expect(await accept(JSON.stringify({ html: '"'.repeat(MAX_HTML_BYTES + 1), domain: "example.com" }))).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    expect(await accept(JSON.stringify({ html: "x".repeat(MAX_HTML_BYTES + 1), domain: "example.com" }))).toBe(
      "PAYLOAD_TOO_LARGE",
    );
  });

  it("still refuses a body no valid request needs, before parsing it", async () => {
    const cap = maxAnalyzeBodyBytes(MAX_HTML_BYTES);
    expect(await accept(" ".repeat(cap + 1))).toBe("PAYLOAD_TOO_LARGE");
    // A Content-Length over the cap is refused without reading the body.
    const declared = post("{}", { "content-length": String(cap + 1) });
    expect(await codeOf(readJsonBody(declared, cap))).toBe("PAYLOAD_TOO_LARGE");
  });
});
