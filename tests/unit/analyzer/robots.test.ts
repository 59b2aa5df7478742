import { describe, expect, it } from "vitest";
import { robotsHeaderNofollow } from "@/lib/analyzer/robots/directives";

describe("robotsHeaderNofollow", () => {
  it.each([
    ["nofollow", true],
    ["NOFOLLOW", true],
    ["noindex, nofollow", true],
    ["none", true],
    ["googlebot: nofollow", true],
    ["googlebot: noindex, nofollow", true],
    ["otherbot: nofollow", false],
    ["otherbot: noindex, nofollow", false],
    ["otherbot: nofollow\nnoindex", false],
    ["otherbot: noindex\nnofollow", true],
    ["max-snippet: 20, nofollow", true],
    ["unavailable_after: 25 Jun 2030 15:00:00 PST", false],
    ["noindex", false],
    ["", false],
  ])("%j → %s", (value, expected) => {
    expect(robotsHeaderNofollow(value)).toBe(expected);
  });
});
