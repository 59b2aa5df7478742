import { describe, expect, it } from "vitest";
import type { FetchPublicOutcome } from "@/lib/analyzer";
import { attemptResult } from "@/lib/webhooks/outcome";

const response = (status: number, body = "", headers: Record<string, string> = {}): FetchPublicOutcome => ({
  kind: "response",
  status,
  headers,
  body: Buffer.from(body),
  truncated: false,
  url: "https://hooks.example/",
});

describe("what an attempt's outcome means (webhooks.md: a 2xx within 10 s is success, anything else a failure)", () => {
  it.each([
    ["200", response(200, "ok"), { ok: true, responseStatus: 200, responseBody: "ok", error: null }],
    ["204 with no body", response(204), { ok: true, responseStatus: 204, responseBody: "", error: null }],
    ["299", response(299), { ok: true, responseStatus: 299 }],
    [
      "301 with a Location: not followed, a failure",
      response(301, "", { location: "https://elsewhere.example/" }),
      {
        ok: false,
        responseStatus: 301,
        error: "HTTP 301: redirects are not followed (Location: https://elsewhere.example/). Use the final URL.",
      },
    ],
    [
      "307 without a Location",
      response(307),
      { ok: false, responseStatus: 307, error: "HTTP 307: redirects are not followed. Use the final URL." },
    ],
    [
      "400 with the receiver's words kept",
      response(400, '{"error":"bad signature"}'),
      {
        ok: false,
        responseStatus: 400,
        responseBody: '{"error":"bad signature"}',
        error: "HTTP 400: the receiver did not accept the delivery.",
      },
    ],
    ["410", response(410), { ok: false, responseStatus: 410 }],
    ["500", response(500, "boom"), { ok: false, responseStatus: 500, responseBody: "boom" }],
    ["100 (never a success)", response(100), { ok: false, responseStatus: 100 }],
    [
      "no answer in time",
      { kind: "timeout", url: "https://hooks.example/" } as FetchPublicOutcome,
      { ok: false, responseStatus: null, responseBody: null, error: "No answer within 10 s." },
    ],
    [
      "a host that resolves to a private address",
      {
        kind: "blocked",
        url: "https://rebind.example/",
        message: "rebind.example resolves to a non-public address.",
        redirected: false,
      } as FetchPublicOutcome,
      { ok: false, responseStatus: null, error: "Not sent: rebind.example resolves to a non-public address." },
    ],
    [
      "a deny-listed host",
      {
        kind: "blocked",
        url: "https://x.example/",
        message: "x.example is on the deny list",
        redirected: false,
      } as FetchPublicOutcome,
      { ok: false, error: "Not sent: x.example is on the deny list." },
    ],
    [
      "a closed connection",
      { kind: "unreachable", url: "https://hooks.example/", message: "other side closed" } as FetchPublicOutcome,
      {
        ok: false,
        responseStatus: null,
        error: "Could not connect, or the connection closed before an answer (other side closed).",
      },
    ],
    [
      "too many redirects (not with maxRedirects 0, but a failure all the same)",
      { kind: "too_many_redirects", url: "https://hooks.example/" } as FetchPublicOutcome,
      { ok: false, responseStatus: null },
    ],
  ])("%s", (_name, outcome, expected) => {
    expect(attemptResult(outcome)).toMatchObject(expected);
  });

  it("keeps at most 1 KiB of the body, and a cut inside a UTF-8 character stays valid text", () => {
    const long = attemptResult(response(500, "é".repeat(2000)));
    expect(Buffer.byteLength(long.responseBody ?? "")).toBeLessThanOrEqual(1024 + 3);
    expect(long.responseBody?.length).toBeLessThanOrEqual(1024);
    expect(long.responseBody).toMatch(/^(é)+\uFFFD?$/);
    const cut = attemptResult(response(200, `${"a".repeat(1023)}é`));
    expect(cut.responseBody).toBe(`${"a".repeat(1023)}\uFFFD`);
  });

  it("the timeout in the message follows the deadline", () => {
    expect(attemptResult({ kind: "timeout", url: "x" }, 2_000).error).toBe("No answer within 2 s.");
  });
});
