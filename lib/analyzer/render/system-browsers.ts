/**
 * Where a Linux system keeps its browsers: Debian's apt packages `chromium-headless-shell` and `chromium`,
 * and other distributions' names for the full browser. Its own module, free of imports, so the test and
 * benchmark harness (scripts/lib/chromium.ts, the Playwright config) names the same paths URL mode probes.
 */
export const SYSTEM_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
export const SYSTEM_FULL_BROWSERS: readonly string[] = [
  DEBIAN_CHROMIUM,
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];
