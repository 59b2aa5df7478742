import { describe, expect, it } from "vitest";
import { isAccessWall, isBrokenStatus, NO_RESPONSE, NOT_CHECKED } from "../../lib/link-status";

describe("httpStatus meanings (lib/link-status.ts)", () => {
  it("never counts a link that was not checked as broken", () => {
    expect(NOT_CHECKED).toBeNull();
    expect(isBrokenStatus(NOT_CHECKED)).toBe(false);
  });

  it("counts no HTTP response as broken", () => {
    expect(NO_RESPONSE).toBe(0);
    expect(isBrokenStatus(NO_RESPONSE)).toBe(true);
  });

  it.each([
    [200, false],
    [301, false],
    [399, false],
    [400, true],
    [404, true],
    [410, true],
    [500, true],
    [599, true],
    [401, false],
    [403, false],
    [429, false],
    [999, false],
    [600, false],
  ])("status %i broken: %s", (status, broken) => {
    expect(isBrokenStatus(status)).toBe(broken);
  });

  it("names the access and bot walls", () => {
    expect([401, 403, 429, 999].every(isAccessWall)).toBe(true);
    expect(isAccessWall(404)).toBe(false);
    expect(isAccessWall(NOT_CHECKED)).toBe(false);
  });
});
