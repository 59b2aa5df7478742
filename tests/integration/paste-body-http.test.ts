import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import { INLINE_BODY_BYTES } from "@/lib/api/analyze-body";
import { parseAnalyzeRequest } from "@/lib/api/analyze-request";
import { ApiError } from "@/lib/errors";
import { parseJsonBytes } from "@/lib/http/read-body";
import { SAMPLE_CORPUS_DIR } from "@/scripts/lib/corpus";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * Large paste bodies over HTTP (production build): they are parsed, analysed and encoded in a worker
 * thread (lib/api/analyze-body.ts), and the answer is the same, byte for byte, as the analysis of the
 * same markup; every malformed large body gets the error it always got (same status, code and
 * message) as when the main thread parses it; and the server logs its event-loop delay while requests come in.
 */

const MAX_HTML_BYTES = 300_000;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    LOG_LEVEL: "info",
    RATE_LIMIT_PER_MINUTE: "100000",
    MAX_HTML_BYTES: String(MAX_HTML_BYTES),
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

async function post(body: string, requestId?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(requestId ? { "x-request-id": requestId } : {}),
  };
  const response = await fetch(`${server.baseUrl}/api/demo/analyze`, { method: "POST", headers, body });
  return { status: response.status, text: await response.text() };
}

describe("large paste bodies", () => {
  it("answers exactly what the analysis of the same markup gives", async () => {
    const html = readFileSync(path.join(SAMPLE_CORPUS_DIR, "postlight.com.html"), "utf8");
    expect(Buffer.byteLength(html)).toBeGreaterThan(INLINE_BODY_BYTES);
    const answer = await post(JSON.stringify({ html, domain: "PostLight.com" }), "large-paste-1");
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(
      JSON.stringify(analyzeDocument({ html, pageUrl: "https://postlight.com/", scripting: false })),
    );
    // The worker parsed the body and encoded the answer: its timings have those stages.
    const timingsLine = () =>
      server
        .output()
        .split("\n")
        .find((line) => line.includes('"requestId":"large-paste-1"') && line.includes("paste mode timings"));
    // The server's stdout reaches us a little after its answer.
    for (let waited = 0; !timingsLine() && waited < 5_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const timings = timingsLine();
    const stages = (JSON.parse(timings ?? "{}") as { stages?: Record<string, number> }).stages ?? {};
    expect(Object.keys(stages)).toEqual(expect.arrayContaining(["decode", "parse", "encode"]));
  });

  const filler = "<p>filler</p>".repeat(8_000);
  const malformed: Array<[string, string]> = [
    ["not JSON", `{"html": "${filler}"`],
    ["an array", JSON.stringify([filler])],
    ["html not a string", JSON.stringify({ html: [filler] })],
    ["url and html", JSON.stringify({ url: "https://example.com/", html: filler })],
    ["an extra field", JSON.stringify({ html: filler, note: "x" })],
    ["domain not a string", JSON.stringify({ html: filler, domain: 42 })],
    ["domain with a path", JSON.stringify({ html: filler, domain: "example.com/path" })],
    ["html over MAX_HTML_BYTES", JSON.stringify({ html: "x".repeat(MAX_HTML_BYTES + 1) })],
  ];

  it.each(malformed)("%s: the error the request always got", async (_name, body) => {
    expect(body.length).toBeGreaterThan(INLINE_BODY_BYTES);
    const answer = await post(body);
    const error = JSON.parse(answer.text) as { errorCode: string; error: string };
    // What the main thread's own parsing and validation say of the same bytes (the path small bodies take).
    let expected: { status: number; code: string; message: string } | null = null;
    try {
      parseAnalyzeRequest(parseJsonBytes(new TextEncoder().encode(body)), {
        maxHtmlBytes: MAX_HTML_BYTES,
        allowPrivateHosts: [],
      });
    } catch (thrown) {
      if (thrown instanceof ApiError) expected = { status: thrown.status, code: thrown.code, message: thrown.message };
    }
    expect(expected).not.toBeNull();
    expect({ status: answer.status, code: error.errorCode, message: error.error }).toEqual(expected);
  });

  it("logs the main thread's event-loop delay while requests come in", async () => {
    await post(JSON.stringify({ html: "<a href=/x>x</a>" }));
    const deadline = Date.now() + 12_000;
    while (!server.output().includes('"msg":"event loop"') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    const line = server
      .output()
      .split("\n")
      .find((entry) => entry.includes('"msg":"event loop"'));
    expect(line).toBeDefined();
    const entry = JSON.parse(line ?? "{}") as { requests: number; eventLoopDelayMs: { max: number } };
    expect(entry.requests).toBeGreaterThan(0);
    expect(entry.eventLoopDelayMs.max).toBeGreaterThanOrEqual(0);
  });
});
