import type { BrowserContext, CDPSession, Page } from "puppeteer-core";
import { withTimeout } from "@/lib/timeout";

/**
 * A rendered page handed to its caller after the render (RenderOptions.keepPage), for evidence
 * screenshots (lib/analyzer/screenshots/camera.ts). Its network is already cut (the render's proxy session
 * closed with the render), and it is frozen at once: its timers, animation frames and scripts stop, so the
 * page does not move under the camera (the DOM photographed is the DOM analysed). Keeping a page open costs a check
 * that changes nothing no throughput (`npm run bench:evidence`) since the browser stopped building its
 * omnibox popup for every open page (browser.ts). wake() thaws it for a screenshot. The caller closes
 * it; a forgotten lease closes itself after KEPT_PAGE_MAX_MS.
 */

export interface PageLease {
  readonly page: Page;
  /** Lets the page run again (a screenshot needs a frame); safe to call often. */
  wake(): Promise<void>;
  /** Closes the context; safe to call twice. */
  close(): Promise<void>;
}

/** The longest a kept page stays open when its caller never closes it. */
export const KEPT_PAGE_MAX_MS = 120_000;
/** A freeze or thaw that takes longer is given up (the page then just runs, or the shot fails). */
const LIFECYCLE_TIMEOUT_MS = 2_000;

export async function leasePage(page: Page, context: BrowserContext): Promise<PageLease> {
  let cdp: CDPSession | null = null;
  let frozen = false;
  try {
    cdp = await page.createCDPSession();
    // Chromium's own page freezing (what it does to background tabs): no task of the page runs meanwhile.
    frozen =
      (await withTimeout(
        cdp.send("Page.setWebLifecycleState", { state: "frozen" }).then(() => true),
        LIFECYCLE_TIMEOUT_MS,
      )) === true;
  } catch {
    // A page that cannot be frozen keeps running until it is closed: slower, never wrong.
  }
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      clearTimeout(expiry);
      await withTimeout(
        context.close().catch(() => undefined),
        3_000,
      );
    })();
    return closing;
  };
  const expiry = setTimeout(() => void close(), KEPT_PAGE_MAX_MS);
  expiry.unref?.();
  return {
    page,
    async wake() {
      if (!frozen || !cdp) return;
      frozen = false;
      await withTimeout(
        cdp.send("Page.setWebLifecycleState", { state: "active" }).catch(() => undefined),
        LIFECYCLE_TIMEOUT_MS,
      );
    },
    close,
  };
}
