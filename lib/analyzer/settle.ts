import type { HTTPRequest, Page } from "puppeteer-core";
import { withTimeout } from "@/lib/timeout";

/**
 * After `load`, scripts often keep adding links (timers, fetch then render). settle() waits until the
 * page is done with them, bounded by the render's deadline and a cap; a page that never goes quiet is
 * analysed as it stands when the cap runs out.
 *
 * "Done" is adaptive. The old rule waited for a fixed quiet period (500 ms without a request or a DOM
 * change), which every render paid in full. Now the page also tells us what it has scheduled: an
 * activity tracker, installed before any page script runs, records the last DOM mutation and the
 * timers (setTimeout) still pending. The wait ends once no request is in flight, nothing changed for
 * `idleMs` (short; a little longer after a request ended), and no pending timer is due before the old quiet period would have ended. So every
 * change the fixed period caught is still waited for (a link added 300 ms after load by a timer, or
 * after a fetch), and a page with nothing left to do is captured `idleMs` after its last activity.
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
  /** The horizon: activity (a request ending, a DOM change, a due timer) this soon after the last one is waited for. */
  quietMs: number;
  /** How long after its last DOM change the page counts as done (default 150 ms). */
  idleMs?: number;
  /**
   * How long after its last request ended (default 250 ms): a response still has to reach the page's
   * script and become DOM, and a busy renderer takes its time with that.
   */
  networkIdleMs?: number;
  maxMs: number;
}

// A name no page will use; the property is non-enumerable, so page scripts iterating window do not see it.
const TRACKER_KEY = "__linklensActivity_7f3a9c";

/** What the tracker reports: ms since the last DOM change, and ms until the next pending timer (null: none). */
interface ActivityReport {
  sinceMutation: number;
  untilNextTimer: number | null;
}

/**
 * Runs in every frame before its scripts (evaluateOnNewDocument). It only observes: a MutationObserver
 * on the document, and setTimeout/clearTimeout wrapped in Proxies (so they still look native to page
 * scripts) to keep the due time of every pending timer. Never throws into the page.
 */
function activityTracker(key: string): void {
  try {
    const pending = new Map<number, number>();
    const state = { lastMutation: performance.now(), pending };
    Object.defineProperty(window, key, { value: state, enumerable: false, configurable: false, writable: false });
    new MutationObserver(() => {
      state.lastMutation = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const nativeSetTimeout = window.setTimeout;
    const nativeClearTimeout = window.clearTimeout;
    window.setTimeout = new Proxy(nativeSetTimeout, {
      apply(target, thisArg, args: unknown[]) {
        const handler = args[0];
        let id = 0;
        if (typeof handler === "function") {
          args[0] = function (this: unknown, ...rest: unknown[]) {
            pending.delete(id);
            return (handler as (...a: unknown[]) => unknown).apply(this, rest);
          };
        }
        id = Reflect.apply(target, thisArg, args) as number;
        // A string handler cannot be wrapped; its timer is tracked until its due time passes.
        pending.set(id, performance.now() + Math.max(0, Number(args[1]) || 0));
        return id;
      },
    });
    window.clearTimeout = new Proxy(nativeClearTimeout, {
      apply(target, thisArg, args: unknown[]) {
        pending.delete(Number(args[0]));
        return Reflect.apply(target, thisArg, args) as unknown;
      },
    });
  } catch {
    // A frame without a window or document: nothing to track there.
  }
}

/** Installs the activity tracker in every frame the page will load. Call before page.goto. */
export async function installActivityTracker(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(activityTracker, TRACKER_KEY);
}

async function readActivity(page: Page): Promise<ActivityReport | null> {
  return page
    .evaluate((key: string): ActivityReport | null => {
      const state = (window as unknown as Record<string, { lastMutation: number; pending: Map<number, number> } | undefined>)[key];
      if (!state) return null;
      const now = performance.now();
      let next: number | null = null;
      for (const [id, due] of state.pending) {
        // Past due and still listed: a string handler that already ran, or a timer the page starved.
        if (due < now - 1_000) state.pending.delete(id);
        else if (next === null || due < next) next = due;
      }
      return { sinceMutation: now - state.lastMutation, untilNextTimer: next === null ? null : Math.max(0, next - now) };
    }, TRACKER_KEY)
    .catch(() => null);
}

const POLL_MS = 25;

/** Waits until the page is done (see above), at most `maxMs` and never past `deadline` (epoch ms). */
export async function settle(page: Page, tracker: NetworkTracker, deadline: number, settings: SettleSettings): Promise<void> {
  const quietMs = settings.quietMs;
  const idleMs = Math.min(settings.idleMs ?? 150, quietMs);
  const networkIdleMs = Math.min(settings.networkIdleMs ?? 250, quietMs);
  const capMs = Math.min(Math.max(0, deadline - Date.now()), settings.maxMs);
  if (capMs <= 0) return;
  const stopAt = Date.now() + capMs;
  while (Date.now() < stopAt) {
    if (tracker.inflight.size === 0) {
      const sinceNetwork = Date.now() - tracker.lastActivity;
      // Bounded: a page whose main thread never comes back (a busy loop) must not hold us past the cap.
      const activity = await withTimeout(readActivity(page), Math.max(0, stopAt - Date.now()));
      if (activity === undefined) return;
      if (activity === null) {
        // No tracker (the page replaced its document, or evaluation failed): the fixed quiet period.
        if (sinceNetwork >= quietMs) return;
      } else {
        const since = Math.min(sinceNetwork, activity.sinceMutation);
        const timerSoon = activity.untilNextTimer !== null && activity.untilNextTimer <= quietMs - since;
        if (activity.sinceMutation >= idleMs && sinceNetwork >= networkIdleMs && !timerSoon) return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, stopAt - Date.now()))));
  }
}
