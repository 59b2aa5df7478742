import { existsSync } from "node:fs";

/**
 * The Chromium the tests and benchmarks drive: PUPPETEER_EXECUTABLE_PATH when set, else Debian's
 * headless shell (`chromium-headless-shell`, the same Blink and V8 without the browser's windowing and
 * UI, which URL mode also prefers: lib/analyzer/render/browser.ts), else Debian's full `chromium`.
 * Launches and renders cost it about a third of the full browser's CPU (docs/operations.md).
 */
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const FULL_CHROMIUM = "/usr/bin/chromium";

export const TEST_CHROMIUM =
  process.env.PUPPETEER_EXECUTABLE_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);
