import { describe, expect, it } from "vitest";
import { hashToken, isTokenShaped, newToken, sameHash, TOKEN_LENGTH } from "@/lib/shares/token";
import { isActive } from "@/lib/shares/open";
import { reportFilename } from "@/lib/shares/export";
import { isSharePath } from "@/lib/shares/headers";

describe("share tokens", () => {
  it("are 32 base64url characters from 24 random bytes (192 bits), all different, stored as their SHA-256", () => {
    const tokens = Array.from({ length: 200 }, () => newToken());
    expect(new Set(tokens.map((t) => t.token)).size).toBe(200);
    for (const { token, hash } of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(Buffer.from(token, "base64url")).toHaveLength(24);
      expect(hash).toBe(hashToken(token));
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).not.toContain(token);
    }
    expect(TOKEN_LENGTH).toBe(32);
  });

  const token = newToken().token;
  it.each([
    ["a token", token, true],
    ["truncated by one", token.slice(0, -1), false],
    ["one character more", `${token}A`, false],
    ["a trailing space", `${token} `, false],
    ["a percent-encoded character", `${token.slice(0, 30)}%2`, false],
    ["a dot", `${token.slice(0, 31)}.`, false],
    ["empty", "", false],
    ["a non-ASCII letter", `${token.slice(0, 31)}é`, false],
  ])("isTokenShaped: %s → %s", (_name, value, shaped) => {
    expect(isTokenShaped(value)).toBe(shaped);
  });

  it.each([
    ["the same hash", hashToken("a"), hashToken("a"), true],
    ["another hash", hashToken("a"), hashToken("b"), false],
    ["a shorter one", hashToken("a"), hashToken("a").slice(0, 62), false],
    ["empty ones", "", "", false],
  ])("sameHash: %s → %s", (_name, a, b, same) => {
    expect(sameHash(a, b)).toBe(same);
  });
});

describe("which shares are shown", () => {
  const now = new Date("2026-05-04T12:00:00Z");
  it.each([
    ["never expires, not revoked", { revokedAt: null, expiresAt: null }, true],
    ["expires later", { revokedAt: null, expiresAt: new Date("2026-05-04T12:00:00.001Z") }, true],
    ["expires exactly now", { revokedAt: null, expiresAt: now }, false],
    ["expired", { revokedAt: null, expiresAt: new Date("2026-05-01T00:00:00Z") }, false],
    ["revoked", { revokedAt: new Date("2026-05-01T00:00:00Z"), expiresAt: null }, false],
  ])("%s → %s", (_name, row, active) => {
    expect(isActive(row, now)).toBe(active);
  });
});

describe("report files and paths", () => {
  it.each([
    ["Acme: guest posts, spring 2026", "linklens-report-acme-guest-posts-spring-2026-2026-05-04.csv"],
    ["Ünïcödé ⚡ only", "linklens-report-n-c-d-only-2026-05-04.csv"],
    ["⚡", "linklens-report-report-2026-05-04.csv"],
    ['"; rm -rf /', "linklens-report-rm-rf-2026-05-04.csv"],
  ])("reportFilename(%j) is ASCII: %s", (title, name) => {
    expect(reportFilename(title, new Date("2026-05-04T12:00:00Z"))).toBe(name);
  });

  it.each([
    ["/r/abc", true],
    ["/r/abc/export.csv", true],
    ["/r", true],
    ["/reports", false],
    ["/app/reports", false],
    ["/api/r/x", false],
  ])("isSharePath(%s) → %s", (path, expected) => {
    expect(isSharePath(path)).toBe(expected);
  });
});
