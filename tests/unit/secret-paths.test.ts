import { describe, expect, it } from "vitest";
import { REDACTED, redactSecretPaths } from "@/lib/secret-paths";

/**
 * The one redaction of paths and URLs that every logger uses (lib/log.ts, server/redacted-console.ts):
 * a report's token, a reset link's token and any `token=` value never survive it; the route stays
 * readable; paths that hold no secret are left as they are.
 */
const TOKEN = "FlcKL40cSKoazDfI2LBldV2zsJ7deRdl";

describe("redactSecretPaths", () => {
  it.each([
    ["a report page", `/r/${TOKEN}`, `/r/${REDACTED}`],
    ["a report page with a trailing slash", `/r/${TOKEN}/`, `/r/${REDACTED}/`],
    ["its CSV", `/r/${TOKEN}/export.csv`, `/r/${REDACTED}/export.csv`],
    ["a page of it, query kept", `/r/${TOKEN}?page=2`, `/r/${REDACTED}?page=2`],
    [
      "a token of the wrong shape (a typo of a real one is nearly the real one)",
      `/r/${TOKEN.slice(0, -1)}`,
      `/r/${REDACTED}`,
    ],
    ["percent-encoded characters", `/r/${TOKEN}%2F%00`, `/r/${REDACTED}`],
    ["repeated slashes", `//r//${TOKEN}`, `//r//${REDACTED}`],
    ["another letter case", `/R/${TOKEN}`, `/R/${REDACTED}`],
    ["a whole URL", `https://linklens.example/r/${TOKEN}`, `https://linklens.example/r/${REDACTED}`],
    [
      "a URL with a port",
      `http://127.0.0.1:3000/r/${TOKEN}/export.csv`,
      `http://127.0.0.1:3000/r/${REDACTED}/export.csv`,
    ],
    [
      "Better Auth's reset link",
      `/api/auth/reset-password/${TOKEN}?callbackURL=%2Freset-password`,
      `/api/auth/reset-password/${REDACTED}?callbackURL=%2Freset-password`,
    ],
    [
      "a reset link as a URL",
      `https://linklens.example/api/auth/reset-password/${TOKEN}`,
      `https://linklens.example/api/auth/reset-password/${REDACTED}`,
    ],
    [
      "a query token",
      `/api/auth/magic-link/verify?token=${TOKEN}&callbackURL=%2Fapp`,
      `/api/auth/magic-link/verify?token=${REDACTED}&callbackURL=%2Fapp`,
    ],
    ["a query token after another parameter", `/mute?undo=1&token=${TOKEN}`, `/mute?undo=1&token=${REDACTED}`],
  ])("%s", (_, path, expected) => {
    expect(redactSecretPaths(path)).toBe(expected);
    // Redacting twice changes nothing more.
    expect(redactSecretPaths(expected)).toBe(expected);
  });

  it("finds them anywhere in a log line: a JSON field, an error message, a sentence", () => {
    const line = JSON.stringify({
      path: `/r/${TOKEN}`,
      err: { message: `Failed to handle request for /r/${TOKEN}/export.csv`, stack: `Error: at /r/${TOKEN} (page)` },
      msg: `GET https://a.example/r/${TOKEN}`,
    });
    const redacted = redactSecretPaths(line);
    expect(redacted).not.toContain(TOKEN);
    expect(JSON.parse(redacted)).toEqual({
      path: `/r/${REDACTED}`,
      err: {
        message: `Failed to handle request for /r/${REDACTED}/export.csv`,
        stack: `Error: at /r/${REDACTED} (page)`,
      },
      msg: `GET https://a.example/r/${REDACTED}`,
    });
  });

  it.each([
    "/r",
    "/r/",
    "/reports/abc",
    "/app/reports",
    "/api/auth/reset-password",
    "/api/account/shares/6f1c-id",
    "/app/invitations/0b9e-id",
    "/static/r/app.js",
    "https://blog.example/guest-post?ref=r/abc",
    "/api/demo/analyze",
  ])("leaves %s as it is", (path) => {
    expect(redactSecretPaths(path)).toBe(path);
  });

  it("costs time in proportion to the text, so every log line can pass through it", () => {
    // The pattern once looked behind by a variable length from every position: a 1 KB log line took
    // 1–2 ms, a 1 MiB one would take minutes. Linear, a MiB takes milliseconds; the bound has a
    // thousandfold margin either way, so a loaded machine cannot make it fail.
    const filler = "x".repeat(1024 * 1024);
    const secret = "a".repeat(40);
    for (const text of [
      filler,
      `${filler} /r/${secret}`,
      `https://a.example/r/${secret}?q=${filler}&token=${secret}`,
    ]) {
      const started = performance.now();
      const out = redactSecretPaths(text);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(out.includes(secret)).toBe(false);
    }
  });
});
