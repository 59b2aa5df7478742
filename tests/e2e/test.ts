import { mkdirSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type ConsoleMessage, type Page } from "@playwright/test";
import { APP_ORIGIN, LIMITED_ORIGIN } from "./ports";

export { expect };

/** Where every e2e screenshot lands, for a person to look at. */
export const SCREENSHOT_DIR = path.resolve(__dirname, "..", "..", "test-results", "screenshots");

/**
 * The pages' screenshots are for a person to look at (`npm run test:e2e:look`), never compared by a
 * test: taken only when asked for, since ~190 full-page PNGs cost the test run minutes of CPU.
 */
const TAKE_SCREENSHOTS = process.env.E2E_SCREENSHOTS === "1";

/** Saves a full-page screenshot of any page (a second context's, say) to test-results/screenshots/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: "disabled" });
}

/**
 * Console errors that are the tested behaviour, not bugs: Chromium logs every non-2xx fetch
 * ("Failed to load resource: … 403") and every failed image of the analyzed page (no internet here);
 * "Check now" answers 409 while the scheduler is checking the same monitor, and the page says so and
 * is tried again (monitoring.ts checkNow) — how long a scheduled check holds a monitor is the machine's.
 */
function isExpectedConsoleError(message: ConsoleMessage): boolean {
  if (!message.text().startsWith("Failed to load resource")) return false;
  const url = message.location().url;
  const ours = url.startsWith(APP_ORIGIN) || url.startsWith(LIMITED_ORIGIN);
  if (!ours) return true;
  const path = new URL(url).pathname;
  const checkNowBusy = message.text().includes("409") && /^\/api\/account\/monitors\/[^/]+\/check$/.test(path);
  return path === "/api/demo/analyze" || checkNowBusy;
}

interface Fixtures {
  /** Every console error and uncaught exception of the page; the test fails if any is unexpected. */
  consoleErrors: string[];
  /** Saves a full-page screenshot to test-results/screenshots/<name>.png and attaches it (E2E_SCREENSHOTS=1). */
  shot: (name: string, options?: { fullPage?: boolean }) => Promise<void>;
}

export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ page }, provide) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && !isExpectedConsoleError(message))
          errors.push(`${message.text()} @ ${message.location().url}`);
      });
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
      await provide(errors);
      expect(errors, "unexpected console errors").toEqual([]);
    },
    { auto: true },
  ],
  shot: async ({ page }, provide, testInfo) => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await provide(async (name: string, options = {}) => {
      if (!TAKE_SCREENSHOTS) return;
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: options.fullPage ?? true, animations: "disabled" });
      await testInfo.attach(name, { path: file, contentType: "image/png" });
    });
  },
});

/** Picks an input mode by clicking its visible label (the radio itself is visually hidden). */
export async function chooseMode(page: Page, mode: "URL" | "Paste HTML"): Promise<void> {
  await page
    .locator("label")
    .filter({ hasText: new RegExp(`^${mode} \\(`) })
    .click();
  await expect(page.getByRole("radio", { name: new RegExp(`^${mode}`) })).toBeChecked();
}

/** Switches to paste mode, fills the form and analyzes; resolves once the results are shown. */
export async function analyzePaste(page: Page, html: string, domain?: string): Promise<void> {
  await chooseMode(page, "Paste HTML");
  await page.getByLabel("HTML", { exact: true }).fill(html);
  if (domain !== undefined) await page.getByLabel(/^Domain/).fill(domain);
  await page.getByRole("button", { name: "Analyze" }).click();
  // Generous: with two workers, a 5,000-link analysis may be ahead in the server's worker pool.
  await expect(page.getByTestId("results")).toBeVisible({ timeout: 45_000 });
}

/** The snapshot iframe's document, reached the same way the app does (same origin, no scripts). */
export function snapshotFrame(page: Page) {
  return page.frameLocator('iframe[title^="Sanitized snapshot"]');
}

/** Rows of the links table body. */
export function tableRows(page: Page) {
  return page.getByRole("region", { name: /^Links \(/ }).locator("tbody tr");
}

export const GUEST_POST_HTML = `<!doctype html>
<html lang="en"><head><title>Guest post</title></head><body>
<h1>Ten tips</h1>
<p><a href="/pricing">Pricing</a> and <a href="https://example.org/landing" rel="nofollow">Partner, "quoted"</a>.</p>
<p><a href="https://blog.example.org/post">Blog post</a> · <a href="https://sponsor.test/" rel="sponsored">=Sponsor</a></p>
<p><a href="mailto:x@example.com">Mail</a></p>
<a href="https://forum.test/t/1" rel="ugc"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Forum badge"></a>
</body></html>`;
