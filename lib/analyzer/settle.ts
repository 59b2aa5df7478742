import type { HTTPRequest, Page } from "puppeteer-core";
import { withTimeout } from "@/lib/timeout";

/**
 * After `load`, scripts often keep adding links (timers, fetch then render). settle() waits until the
 * network has been idle and the DOM unchanged for a quiet period, bounded by the render's deadline and
 * a cap; a page that never goes quiet is analysed as it stands when the cap runs out.
 */

/** Requests of the page's frames still in flight, and when that set last changed. */
export interface NetworkTracker {
  inflight: Set<HTTPRequest>;
  lastActivity: number;
}

/**
 * Our own count of the page's requests in flight. puppeteer's waitForNetworkIdle also counts requests
 * of shared workers whose end it never sees, so any page with a SharedWorker would wait until the deadline.
 */
export function trackNetwork(page: Page): NetworkTracker {
  const network: NetworkTracker = { inflight: new Set(), lastActivity: Date.now() };
  page.on("request", (request) => {
    if (!request.frame()) return;
    network.inflight.add(request);
    network.lastActivity = Date.now();
  });
  const settled = (request: HTTPRequest) => {
    if (network.inflight.delete(request)) network.lastActivity = Date.now();
  };
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  return network;
}

/** Quiet time for network and DOM, and the cap on the whole wait. */
export interface SettleSettings {
  quietMs: number;
  maxMs: number;
}

/** Waits for network and DOM to be quiet for `quietMs`, at most `maxMs` and never past `deadline` (epoch ms). */
export async function settle(page: Page, tracker: NetworkTracker, deadline: number, settings: SettleSettings): Promise<void> {
  const quietMs = settings.quietMs;
  const capMs = Math.min(Math.max(0, deadline - Date.now()), settings.maxMs);
  if (capMs <= 0) return;
  const stopAt = Date.now() + capMs;
  const network = (async () => {
    while (Date.now() < stopAt) {
      if (tracker.inflight.size === 0 && Date.now() - tracker.lastActivity >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const dom = page
    .evaluate(
      (quiet: number, cap: number) =>
        new Promise<void>((resolve) => {
          let timer = setTimeout(done, quiet);
          const observer = new MutationObserver(() => {
            clearTimeout(timer);
            timer = setTimeout(done, quiet);
          });
          const hardStop = setTimeout(done, cap);
          function done() {
            observer.disconnect();
            clearTimeout(timer);
            clearTimeout(hardStop);
            resolve();
          }
          observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        }),
      quietMs,
      capMs,
    )
    .catch(() => undefined);
  await withTimeout(Promise.all([network, dom]), capMs + 250);
}
