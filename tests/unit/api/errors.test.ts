import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError, ERROR_STATUS, toErrorBody } from "../../../lib/api/errors";

const DOCS = "https://linklens.test/docs#errors";

describe("toErrorBody", () => {
  it("maps every code to the status of decisions.md", () => {
    expect(ERROR_STATUS).toMatchObject({
      INVALID_REQUEST: 400, INVALID_URL: 400, UNAUTHORIZED: 401, FORBIDDEN: 403, INVALID_ORIGIN: 403, BLOCKED_URL: 403,
      BLOCKED_REDIRECT: 403, BOT_DETECTED: 403, NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405, PAYLOAD_TOO_LARGE: 413,
      UNPROCESSABLE_PAGE: 422, RATE_LIMITED: 429, INTERNAL_ERROR: 500, UPSTREAM_ERROR: 502,
    });
  });

  it("keeps an ApiError's message, hint and headers", () => {
    const result = toErrorBody(new ApiError("RATE_LIMITED", "slow down", { hint: "wait", headers: { "Retry-After": "3" } }), DOCS);
    expect(result).toEqual({
      status: 429,
      headers: { "Retry-After": "3" },
      expected: true,
      body: { success: false, error: "slow down", errorCode: "RATE_LIMITED", hint: "wait", docs: DOCS },
    });
  });

  it("turns a ZodError into INVALID_REQUEST with the first issue as path: message", () => {
    const parsed = z.strictObject({ url: z.string() }).safeParse({ url: 1 });
    const result = toErrorBody(parsed.error, DOCS);
    expect(result.status).toBe(400);
    expect(result.body.errorCode).toBe("INVALID_REQUEST");
    expect(result.body.error).toMatch(/^url: /);
  });

  it("hides everything about an unexpected error", () => {
    const secret = new Error("ENOENT: /srv/app/secret.key at Object.<anonymous> (/work/main/lib/x.ts:1:1)");
    const result = toErrorBody(secret, DOCS);
    expect(result.status).toBe(500);
    expect(result.expected).toBe(false);
    expect(Object.keys(result.body).sort()).toEqual(["docs", "error", "errorCode", "hint", "success"]);
    expect(JSON.stringify(result.body)).not.toMatch(/secret|ENOENT|\/srv|\/work/);
    expect(result.body.errorCode).toBe("INTERNAL_ERROR");
  });
});

describe("ApiError identity", () => {
  it("recognizes an ApiError made by another copy of the class (another bundle)", async () => {
    const { vi } = await import("vitest");
    vi.resetModules();
    // A query string makes Vite load a second, independent copy of the module.
    const copyPath = "../../../lib/api/errors?copy";
    const other = (await import(/* @vite-ignore */ copyPath)) as typeof import("../../../lib/api/errors");
    const foreign = new other.ApiError("UNPROCESSABLE_PAGE", "too slow");
    expect(other.ApiError).not.toBe(ApiError);
    expect(foreign instanceof ApiError).toBe(true);
    expect(toErrorBody(foreign, DOCS).status).toBe(422);
    expect(new Error("x") instanceof ApiError).toBe(false);
    expect({ code: "NOT_FOUND" } instanceof ApiError).toBe(false);
  });
});
