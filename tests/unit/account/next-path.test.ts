import { describe, expect, it } from "vitest";
import { safeNextPath } from "../../../lib/account/next-path";

describe("safeNextPath (where sign-in goes next)", () => {
  it.each([
    [undefined, "/app"],
    ["/app/team", "/app/team"],
    ["/app/invitations/abc?x=1", "/app/invitations/abc?x=1"],
    ["https://evil.example/", "/app"],
    ["//evil.example/", "/app"],
    ["/\\evil.example", "/app"],
    ["app", "/app"],
  ])("%s → %s", (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });
});
