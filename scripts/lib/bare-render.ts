import type { Browser } from "puppeteer-core";

/**
 * The benchmarks' bare render, the floor LinkLens's renderer is compared against: a fresh incognito
 * context, `load` (15 s at most), the DOM read, the page left open `keepMs` (a kept evidence page; default
 * none), the context closed. A page that fails to load counts as rendered as far as it got.
 */
export async function bareRender(browser: Browser, url: string, keepMs = 0): Promise<void> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load", timeout: 15_000 }).catch(() => undefined);
    await page.content().catch(() => "");
    if (keepMs > 0) await new Promise((resolve) => setTimeout(resolve, keepMs));
  } finally {
    await context.close().catch(() => undefined);
  }
}
