import { existsSync } from "node:fs";
import { DEBIAN_CHROMIUM, SYSTEM_HEADLESS_SHELL } from "../../lib/analyzer/render/system-browsers";

/**
 * The Chromium the tests and benchmarks drive: PUPPETEER_EXECUTABLE_PATH when set, else Debian's
 * headless shell (`chromium-headless-shell`, the same Blink and V8 without the browser's windowing and
 * UI, which URL mode also prefers: lib/analyzer/render/browser.ts), else Debian's full `chromium`.
 * Launches and renders cost it about a third of the full browser's CPU (docs/operations.md).
 */
export const TEST_CHROMIUM =
  process.env.PUPPETEER_EXECUTABLE_PATH ||
  (existsSync(SYSTEM_HEADLESS_SHELL) ? SYSTEM_HEADLESS_SHELL : DEBIAN_CHROMIUM);

/**
 * The Chromium the benchmarks measure, their servers' included: PUPPETEER_EXECUTABLE_PATH when set, else
 * Debian's full `chromium`, the browser their targets were set and tracked on (docs/performance.md). The
 * shell's faster bare render moves the URL-mode ratio's baseline, not LinkLens's own time: measure it with
 * `PUPPETEER_EXECUTABLE_PATH=/usr/bin/chromium-headless-shell npm run bench`.
 */
export const BENCH_CHROMIUM = process.env.PUPPETEER_EXECUTABLE_PATH || DEBIAN_CHROMIUM;
