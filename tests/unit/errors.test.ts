import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ApiError, ERROR_CODES, ERRORS, errorAnchor, errorStatus } from "../../lib/errors";

describe("the error table (lib/errors.ts)", () => {
  it("maps every code to the status of decisions.md and account-api.md", () => {
    expect(Object.fromEntries(ERROR_CODES.map((code) => [code, errorStatus(code)]))).toEqual({
      INVALID_REQUEST: 400,
      INVALID_URL: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      INVALID_ORIGIN: 403,
      TWO_FACTOR_REQUIRED: 403,
      BLOCKED_URL: 403,
      BLOCKED_REDIRECT: 403,
      BOT_DETECTED: 403,
      NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      CONFLICT: 409,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      UNPROCESSABLE_PAGE: 422,
      RATE_LIMITED: 429,
      INTERNAL_ERROR: 500,
      UPSTREAM_ERROR: 502,
    });
  });

  it("has a hint and a docs text for every code, and marks the account-only codes as not public", () => {
    for (const code of ERROR_CODES) {
      expect(ERRORS[code].hint.length, code).toBeGreaterThan(10);
      expect(ERRORS[code].when.length, code).toBeGreaterThan(10);
    }
    // public-api.md section 7 lists UNAUTHORIZED, FORBIDDEN and INVALID_ORIGIN; only CONFLICT and
    // UNSUPPORTED_MEDIA_TYPE (reports-and-channels.md's logo uploads, /api/auth's JSON rule) and TWO_FACTOR_REQUIRED
    // are docs/spec/account-api.md's alone.
    expect(ERROR_CODES.filter((code) => !ERRORS[code].public).sort()).toEqual([
      "CONFLICT",
      "TWO_FACTOR_REQUIRED",
      "UNSUPPORTED_MEDIA_TYPE",
    ]);
  });

  it("imports nothing, so every layer may use it", () => {
    const source = readFileSync(path.join(__dirname, "..", "..", "lib", "errors.ts"), "utf8");
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/\brequire\(/);
  });

  it("names a docs anchor per code", () => {
    expect(errorAnchor("PAYLOAD_TOO_LARGE")).toBe("error-PAYLOAD_TOO_LARGE");
  });

  it("gives an ApiError the table's status and default hint unless told otherwise", () => {
    const error = new ApiError("PAYLOAD_TOO_LARGE", "too big");
    expect(error.status).toBe(413);
    expect(error.hint).toBe(ERRORS.PAYLOAD_TOO_LARGE.hint);
    expect(new ApiError("CONFLICT", "taken", { hint: "pick another" }).hint).toBe("pick another");
  });
});

describe("ApiError identity", () => {
  it("recognizes an ApiError made by another copy of the class (another bundle)", async () => {
    const { vi } = await import("vitest");
    vi.resetModules();
    // A query string makes Vite load a second, independent copy of the module.
    const copyPath = "../../lib/errors?copy";
    const other = (await import(/* @vite-ignore */ copyPath)) as typeof import("../../lib/errors");
    const foreign = new other.ApiError("UNPROCESSABLE_PAGE", "too slow");
    expect(other.ApiError).not.toBe(ApiError);
    expect(foreign instanceof ApiError).toBe(true);
    expect(new Error("x") instanceof ApiError).toBe(false);
    expect({ code: "NOT_FOUND" } instanceof ApiError).toBe(false);
  });
});
