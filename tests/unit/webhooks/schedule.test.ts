import { describe, expect, it } from "vitest";
import { afterFailure, MAX_ATTEMPTS, retryDelayMs } from "@/lib/webhooks/schedule";

const now = new Date("2026-11-23T12:00:00.000Z");
const MIN = 60_000;

describe("the retry schedule of a delivery (webhooks.md: about 1 min, 5 min, 30 min, 2 h, 8 h, then every 24 h; 8 attempts)", () => {
  it.each([
    ["after the 1st failed attempt: 1 min", 1, 60, 1 * MIN],
    ["after the 2nd: 5 min", 2, 60, 5 * MIN],
    ["after the 3rd: 30 min", 3, 60, 30 * MIN],
    ["after the 4th: 2 h", 4, 60, 120 * MIN],
    ["after the 5th: 8 h", 5, 60, 480 * MIN],
    ["after the 6th: 24 h", 6, 60, 1440 * MIN],
    ["after the 7th: 24 h again", 7, 60, 1440 * MIN],
    ["after the 8th: none remains", 8, 60, null],
    ["past the 8th (a manual retry of a failed one): none", 11, 60, null],
    ["no attempt yet: no delay to speak of", 0, 60, null],
    ["the base scales every step (base 1 s: 5 s after the 2nd)", 2, 1, 5_000],
    ["a fractional base for tests (10 ms: 300 ms after the 3rd)", 3, 0.01, 300],
  ] as const)("%s", (_name, attempts, base, expected) => {
    expect(retryDelayMs(attempts, base)).toBe(expected);
  });

  it("8 attempts in all: seven delays, then failed", () => {
    const delays = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1, 60)).filter((d) => d !== null);
    expect(delays).toHaveLength(MAX_ATTEMPTS - 1);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it.each([
    [1, { status: "pending", nextAttemptAt: new Date(now.getTime() + MIN) }],
    [7, { status: "pending", nextAttemptAt: new Date(now.getTime() + 1440 * MIN) }],
    [8, { status: "failed" }],
  ] as const)("afterFailure(%i attempts) → %o", (attempts, expected) => {
    expect(afterFailure(attempts, 60, now)).toEqual(expected);
  });
});
