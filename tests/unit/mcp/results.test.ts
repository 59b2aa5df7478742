import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "../../../lib/errors";
import { toolError, toolSuccess } from "../../../lib/mcp/results";

const CONTEXT = {
  clientKey: "ip:127.0.0.1",
  userAgent: "node",
  requestId: "req-1",
  docsPage: "https://linklens.example/docs",
};
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

describe("toolSuccess", () => {
  it("carries structuredContent, a summary line and the same JSON as text", () => {
    const result = toolSuccess({ success: true, found: false }, "Not found.");
    expect(result).toEqual({
      structuredContent: { success: true, found: false },
      content: [
        { type: "text", text: "Not found." },
        { type: "text", text: '{"success":true,"found":false}' },
      ],
    });
    expect(result.isError).toBeUndefined();
  });
});

describe("toolError", () => {
  it("gives RATE_LIMITED the retry time of its headers", () => {
    const reset = NOW / 1000 + 42;
    const error = new ApiError("RATE_LIMITED", "Too many requests.", {
      headers: { "X-RateLimit-Reset": String(reset), "Retry-After": "42" },
    });
    const result = toolError(error, CONTEXT, NOW);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      errorCode: "RATE_LIMITED",
      retryAfterSeconds: 42,
      retryAt: "2026-11-23T12:00:42.000Z",
      docs: `${CONTEXT.docsPage}#error-RATE_LIMITED`,
    });
    expect(result.content[0]).toEqual({
      type: "text",
      text: "RATE_LIMITED: Too many requests. Retry after 42 s (at 2026-11-23T12:00:42.000Z). Hint: Wait until the time in the X-RateLimit-Reset header (Unix seconds), then retry.",
    });
  });

  it("falls back to 5 s for a busy queue that gave no headers, as the HTTP 429 does", () => {
    const result = toolError(new ApiError("RATE_LIMITED", "The render queue is full."), CONTEXT, NOW);
    expect(result.structuredContent).toMatchObject({ retryAfterSeconds: 5, retryAt: "2026-11-23T12:00:05.000Z" });
  });

  it("turns a ZodError into INVALID_REQUEST and anything else into a bare INTERNAL_ERROR", () => {
    const zod = z.strictObject({ html: z.string() }).safeParse({ html: 1 });
    expect(zod.success).toBe(false);
    expect(toolError(zod.error, CONTEXT, NOW).structuredContent).toMatchObject({
      errorCode: "INVALID_REQUEST",
      error: expect.stringMatching(/^html: /),
    });

    const internal = toolError(new Error("ENOENT: /work/secret/path"), CONTEXT, NOW);
    expect(internal.structuredContent).toEqual({
      success: false,
      error: "Something went wrong on our side.",
      errorCode: "INTERNAL_ERROR",
      hint: "Retry in a moment; if it keeps failing, contact support with the X-Request-Id header.",
      docs: `${CONTEXT.docsPage}#error-INTERNAL_ERROR`,
    });
    expect(JSON.stringify(internal)).not.toContain("/work/secret");
  });
});
