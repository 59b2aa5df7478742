import type { Browser, HTTPRequest } from "puppeteer-core";
import { ApiError } from "@/lib/errors";
import { withTimeout } from "@/lib/timeout";
import type { RenderPriority } from "./queue";

/**
 * Prints a document we wrote ourselves (an evidence report) to PDF with the warm browser the renderer
 * already runs: no second PDF engine. The document is trusted markup, but the page it prints in is locked
 * down anyway: its own incognito context, scripts off, and every request aborted except `data:` URLs (the
 * report embeds its screenshot as one), so nothing in it can reach the network.
 */

/** Print settings: A4, backgrounds on, the first page only unless `pages` is "all". */
export interface PrintOptions {
  /** The whole print (context, content, PDF) must finish within this, ms. */
  timeoutMs: number;
  /** "first" (an evidence report is one page) or "all" (a scheduled report lists every link). */
  pages?: "first" | "all";
  /** A scheduled report is background work: public analyses and renders go first. */
  priority?: RenderPriority;
}

export async function printHtml(browser: Browser, html: string, options: PrintOptions): Promise<Buffer> {
  const context = await browser.createBrowserContext();
  try {
    const job = (async () => {
      const page = await context.newPage();
      await page.setJavaScriptEnabled(false);
      await page.setRequestInterception(true);
      page.on("request", (request: HTTPRequest) => {
        if (request.isInterceptResolutionHandled()) return;
        void (request.url().startsWith("data:") ? request.continue() : request.abort("blockedbyclient")).catch(
          () => undefined,
        );
      });
      await page.setContent(html, { waitUntil: "load", timeout: options.timeoutMs });
      const pdf = await page.pdf({
        format: "A4",
        printBackground: true,
        ...(options.pages === "all" ? {} : { pageRanges: "1" }),
        preferCSSPageSize: true,
        timeout: options.timeoutMs,
      });
      return Buffer.from(pdf);
    })();
    const pdf = await withTimeout(job, options.timeoutMs);
    if (!pdf) throw new ApiError("UPSTREAM_ERROR", "The report could not be printed in time.");
    return pdf;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError("UPSTREAM_ERROR", "The report could not be printed.", { cause: error });
  } finally {
    await withTimeout(
      context.close().catch(() => undefined),
      3_000,
    );
  }
}
