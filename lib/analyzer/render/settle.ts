import type { HTTPRequest, Page } from "puppeteer-core";
import { withTimeout } from "@/lib/timeout";
import {
  activityReport,
  activityTracker,
  TRACKER_KEY,
  WATCHED_ATTRIBUTES,
  type ActivityReport,
  type TrackerLimits,
} from "./activity-tracker";
import { pageScript } from "./page-script";

/**
 * After `load`, scripts often keep adding links (timers, fetch then render, animation frames, scripts
 * they insert). settle() waits until the page has nothing left that could change it, bounded by the
 * render's deadline and a cap; a page that never goes quiet is analysed as it stands when the cap runs out.
 *
 * The rule (`isSettled`, table-tested in tests/unit/analyzer/settle.test.ts): the page is done when
 *  1. no request of the page is in flight (main-frame requests and subframe documents; not beacons,
 *     streams, media or a subframe's own subresources: an ad iframe's traffic does not hold our render),
 *     and the last one ended `networkIdleMs` ago;
 *  2. the page has no open work (activity-tracker.ts: timers and frames of young chains, fetches, body
 *     reads, XHRs, inserted scripts still loading);
 *  3. nothing happened for `idleMs`: no DOM change that matters, no open work ending. This short window is
 *     the net under what the tracker cannot see (a MessageChannel task, an observer callback): it
 *     follows every activity, so a follow-up task of a finished fetch is still waited for.
 * A page without the tracker (it replaced its document) falls back to the old fixed rule: `quietMs`
 * without a request.
 *
 * Before (issue 12), the wait ended 150 ms after the last DOM change and 250 ms after the last request,
 * and timers due within a 500 ms window held it; every render paid those windows even when nothing could
 * change any more, and a link added by a 1.5 s timer was lost. Now a page with nothing open is captured
 * `idleMs` after its last activity, and a late link is waited for because its timer, fetch or frame is open.
 */

/** Requests of the page still in flight, and when that set last changed. */
export interface NetworkTracker {
  inflight: Set<HTTPRequest>;
  lastActivity: number;
}

/**
 * Resource types that never hold the render: they cannot add a link to the main document (media,
 * images and fonts are skipped anyway), or they never end (event streams, WebSockets), or they are
 * fire-and-forget (beacons, pings, reports, prefetches).
 */
const UNTRACKED_TYPES = new Set([
  "image",
  "media",
  "font",
  "texttrack",
  "eventsource",
  "websocket",
  "ping",
  "manifest",
  "cspviolationreport",
  "prefetch",
  "signedexchange",
]);

/**
 * Our own count of the page's requests in flight. puppeteer's waitForNetworkIdle also counts requests
 * of shared workers whose end it never sees, so any page with a SharedWorker would wait until the deadline.
 */
export function trackNetwork(page: Page): NetworkTracker {
  const network: NetworkTracker = { inflight: new Set(), lastActivity: Date.now() };
  page.on("request", (request) => {
    const frame = request.frame();
    if (!frame || UNTRACKED_TYPES.has(request.resourceType())) return;
    // A subframe's own subresources cannot change the main document; its document's load can (onload handlers).
    if (frame !== page.mainFrame() && !request.isNavigationRequest()) return;
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

/** The settle rule's windows and the cap on the whole wait. */
export interface SettleSettings {
  /** Without the tracker: done after this long without a request (the old fixed quiet period). */
  quietMs: number;
  /** Done this long after the last activity, once nothing is open (default IDLE_MS). */
  idleMs?: number;
  /** And this long after the last tracked request ended (default NETWORK_IDLE_MS). */
  networkIdleMs?: number;
  maxMs: number;
  /**
   * An activity neither tracker can see, at this epoch ms (the viewport grew over lazy content: viewport.ts):
   * the idle windows count from it too.
   */
  activeAt?: number;
}

/**
 * 100 ms after the last activity. What it has to catch is a task the tracker does not see, queued by
 * the last thing that happened (React's scheduler posts its render as a MessageChannel task right after
 * the fetch that fed it): that takes a few ms; the rest is room for a loaded 2-core machine.
 */
export const IDLE_MS = 100;
/** In-page tracking already holds fetches, XHRs and scripts until their callbacks ran; this only covers the hop from network to page. */
export const NETWORK_IDLE_MS = 50;

/**
 * Open-work horizons (activity-tracker.ts). 2 s: a link added by a timer up to ~1.5 s after the script
 * that set it (a deferred widget, a "related stories" box) is waited for; a ticker or carousel holds the
 * render at most that long. Frames: an animation loop is an animation after a second. Intervals over
 * 250 ms are tickers, carousels or pings, never waited for; shorter ones are "wait until ready" polls.
 */
export const TRACKER_LIMITS: TrackerLimits = {
  chainMs: 2_000,
  frameMs: 1_000,
  shortIntervalMs: 250,
  maxOpenMs: 10_000,
};

/** Installs the activity tracker in every frame the page will load. Call before page.goto. */
export async function installActivityTracker(page: Page, limits: TrackerLimits = TRACKER_LIMITS): Promise<void> {
  await page.evaluateOnNewDocument(pageScript(activityTracker, TRACKER_KEY, limits, WATCHED_ATTRIBUTES));
}

const READ_ACTIVITY = pageScript(activityReport, TRACKER_KEY);

async function readActivity(page: Page): Promise<ActivityReport | null> {
  return page
    .evaluate(READ_ACTIVITY)
    .then((report) => (report ?? null) as ActivityReport | null)
    .catch(() => null);
}

/** What the rule looks at in one poll. */
export interface SettleObservation {
  /** Tracked requests in flight, and ms since the last one started or ended. */
  inflight: number;
  sinceNetworkMs: number;
  /** The tracker's report; null when the page has none (it replaced its document, or evaluation failed). */
  activity: ActivityReport | null;
}

/** The settle rule (see the header): true when the page can no longer change. */
export function isSettled(
  seen: SettleObservation,
  windows: { quietMs: number; idleMs: number; networkIdleMs: number },
): boolean {
  if (seen.inflight > 0) return false;
  if (seen.activity === null) return seen.sinceNetworkMs >= windows.quietMs;
  return (
    seen.sinceNetworkMs >= windows.networkIdleMs && seen.activity.open === 0 && seen.activity.quietMs >= windows.idleMs
  );
}

const POLL_MS = 20;

/**
 * How a settle ended and what it waited for: ms during which each kind of open work was seen (the
 * tracker's kinds, plus `network` for requests in flight and `quiet` for the idle window), for the
 * "url mode timings" log line: a slow render says why.
 */
export interface SettleResult {
  ended: "idle" | "cap" | "unresponsive";
  waitedFor: Record<string, number>;
}

/** Waits until the page is done (see above), at most `maxMs` and never past `deadline` (epoch ms). */
export async function settle(
  page: Page,
  tracker: NetworkTracker,
  deadline: number,
  settings: SettleSettings,
): Promise<SettleResult> {
  const windows = {
    quietMs: settings.quietMs,
    idleMs: Math.min(settings.idleMs ?? IDLE_MS, settings.quietMs),
    networkIdleMs: Math.min(settings.networkIdleMs ?? NETWORK_IDLE_MS, settings.quietMs),
  };
  const waitedFor: Record<string, number> = {};
  const capMs = Math.min(Math.max(0, deadline - Date.now()), settings.maxMs);
  if (capMs <= 0) return { ended: "cap", waitedFor };
  const stopAt = Date.now() + capMs;
  let last = Date.now();
  let holding: string[] = [];
  const account = () => {
    const now = Date.now();
    for (const kind of holding) waitedFor[kind] = (waitedFor[kind] ?? 0) + (now - last);
    last = now;
  };
  while (Date.now() < stopAt) {
    const inflight = tracker.inflight.size;
    account();
    if (inflight > 0) holding = ["network"];
    else {
      // Bounded: a page whose main thread never comes back (a busy loop) must not hold us past the cap.
      const activity = await withTimeout(readActivity(page), Math.max(0, stopAt - Date.now()));
      account();
      if (activity === undefined) return { ended: "unresponsive", waitedFor };
      // Read after the page answered: a request that started meanwhile counts.
      const sinceActive = settings.activeAt === undefined ? Infinity : Date.now() - settings.activeAt;
      const seen = {
        inflight: tracker.inflight.size,
        sinceNetworkMs: Math.min(Date.now() - tracker.lastActivity, sinceActive),
        activity: activity && { ...activity, quietMs: Math.min(activity.quietMs, sinceActive) },
      };
      if (isSettled(seen, windows)) return { ended: "idle", waitedFor };
      holding =
        seen.inflight > 0
          ? ["network"]
          : activity && activity.open > 0
            ? Object.keys(activity.kinds ?? { open: 1 })
            : ["quiet"];
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, stopAt - Date.now()))));
  }
  account();
  return { ended: "cap", waitedFor };
}
