import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toErrorBody } from "../../../lib/http/error-body";
import { ApiError } from "../../../lib/errors";

const DOCS = "https://linklens.test/docs";

describe("toErrorBody", () => {
  it("keeps an ApiError's message, hint and headers, and points docs at the code's own anchor", () => {
    const result = toErrorBody(
      new ApiError("RATE_LIMITED", "slow down", { hint: "wait", headers: { "Retry-After": "3" } }),
      DOCS,
    );
    expect(result).toEqual({
      status: 429,
      headers: { "Retry-After": "3" },
      expected: true,
      body: {
        success: false,
        error: "slow down",
        errorCode: "RATE_LIMITED",
        hint: "wait",
        docs: `${DOCS}#error-RATE_LIMITED`,
      },
    });
  });

  it("turns a ZodError into INVALID_REQUEST with the first issue as path: message", () => {
    const parsed = z.strictObject({ url: z.string() }).safeParse({ url: 1 });
    const result = toErrorBody(parsed.error, DOCS);
    expect(result.status).toBe(400);
    expect(result.body.errorCode).toBe("INVALID_REQUEST");
    expect(result.body.error).toMatch(/^url: /);
    expect(result.body.docs).toBe(`${DOCS}#error-INVALID_REQUEST`);
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

  it("recognizes an ApiError made by another copy of the class", async () => {
    const copyPath = "../../../lib/errors?copy-for-body";
    const other = (await import(/* @vite-ignore */ copyPath)) as typeof import("../../../lib/errors");
    expect(toErrorBody(new other.ApiError("UNPROCESSABLE_PAGE", "too slow"), DOCS).status).toBe(422);
  });
});
