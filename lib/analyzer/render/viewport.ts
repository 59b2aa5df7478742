import type { CDPSession, Page, Viewport } from "puppeteer-core";
import { withTimeout } from "@/lib/timeout";
import { pageScript } from "./page-script";
import { settle, type NetworkTracker, type SettleResult, type SettleSettings } from "./settle";

/**
 * The render's viewport: the desktop window a visitor sees, and Google's very tall one (google-view.md §1).
 *
 * Google renders with a viewport as tall as the page (about 12,000 CSS px on phones), so content that loads
 * when it comes into view (IntersectionObserver, `loading="lazy"`) is there without any scrolling. After
 * `load` and the first settle, growViewport does the same: it makes the viewport as tall as the document
 * (at most MAX_VIEWPORT_HEIGHT, width unchanged), waits for the first frame at that size (the one in which
 * the page's intersection observers are told), and lets the page settle again under the same idle rules.
 * Nothing is scrolled or clicked and no scroll event is sent (a page at the top stays at the top), so a
 * scroll-event loader stays unseen, as it is to Google.
 *
 * The hidden rule and the evidence camera keep the viewport the render started from (placement-verdict.md):
 * restore() freezes the page first (Chromium's own page freezing: none of its tasks run any more) and only
 * then gives the viewport back, so no observer or resize handler of the page can change what was captured.
 *
 * What it costs a page with nothing lazy: a page no taller than its viewport is not grown at all; a taller
 * one pays one frame (the viewport is grown without resizing the visible surface, so Chromium does not
 * paint 12,000 px: measured 15 ms against 90–215 ms) and one look at the page's activity, since nothing
 * happened after the first settle ended quiet. Only when something reacted (an observer's callback, a
 * request, a DOM change) or lazy elements may start loading does the second settle wait, like the first.
 *
 * Reusable for any render: the start viewport is an argument (desktop 1280×800 here; a phone for
 * Googlebot's view), and the page needs only its CDP session and network tracker (render/context.ts).
 */

/** The analyzer's desktop viewport (every render's page is made with it: browser.ts). */
export const DESKTOP_VIEWPORT: Readonly<Viewport> = { width: 1280, height: 800, deviceScaleFactor: 1 };

/** Google's tallest viewport: a document taller than this is grown to this height. */
export const MAX_VIEWPORT_HEIGHT = 12_000;

/** The second settle of a page whose first one ran into the cap (it never goes quiet) is kept short. */
const BUSY_PAGE_SETTLE_MS = 1_000;

/** No single step of the growth (a measure, the first frame, freezing) may take longer than this. */
const STEP_TIMEOUT_MS = 2_000;

/** The page under render, as growViewport needs it. */
export interface GrowablePage {
  page: Page;
  cdp: CDPSession;
  network: NetworkTracker;
}

/** What growViewport did. */
export interface GrownViewport {
  /** The height the viewport grew to, or null when it did not grow (short page, or a page that stopped answering). */
  height: number | null;
  /** How the second settle ended (null: not grown). */
  settled: SettleResult | null;
  /** Freezes the page and gives it the start viewport back (nothing when it did not grow). Never throws. */
  restore(): Promise<void>;
}

/** The page's height, and whether it has elements the browser loads lazily. Runs in the page. */
export function measureDocument(): { height: number; lazy: boolean } {
  const heights = [document.scrollingElement, document.documentElement, document.body].map((element) =>
    element ? element.scrollHeight : 0,
  );
  return {
    height: Math.max(0, ...heights),
    lazy: document.querySelector('iframe[loading="lazy" i], img[loading="lazy" i]') !== null,
  };
}

const MEASURE = pageScript(measureDocument);

/**
 * Resolves at the first frame after it is called: an observer created now is told about its target in the
 * next rendering update, in the same task as the page's own observers. Run in an isolated world, so that
 * neither the page nor the activity tracker sees it.
 */
const NEXT_FRAME = `new Promise((resolve) => {
  const probe = new IntersectionObserver(() => { probe.disconnect(); resolve(true); });
  probe.observe(document.documentElement);
})`;

function metrics(viewport: Readonly<Viewport>, height: number, visible: boolean) {
  return {
    width: viewport.width,
    height,
    deviceScaleFactor: viewport.deviceScaleFactor ?? 1,
    mobile: viewport.isMobile ?? false,
    screenOrientation: viewport.isLandscape
      ? { angle: 90, type: "landscapePrimary" as const }
      : { angle: 0, type: "portraitPrimary" as const },
    // Layout and intersection use the new height; the visible surface (and its painting) keeps its size.
    ...(visible ? {} : { dontSetVisibleSize: true }),
  };
}

async function nextFrame(cdp: CDPSession, deadline: number): Promise<void> {
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
    frameId: frameTree.frame.id,
    worldName: "linklens-viewport",
  });
  await withTimeout(
    cdp.send("Runtime.evaluate", { contextId: executionContextId, expression: NEXT_FRAME, awaitPromise: true }),
    Math.max(0, Math.min(STEP_TIMEOUT_MS, deadline - Date.now())),
  );
}

const NOT_GROWN: GrownViewport = { height: null, settled: null, restore: async () => undefined };

/**
 * Grows the viewport from `start` to the document's height and lets the page settle again (see above), by
 * `deadline` (epoch ms). `firstSettle` is how the render's first settle ended. Call restore() before
 * anything that must see the start viewport (the visibility pass, screenshots). Never throws: a page that
 * cannot be grown is analysed as it stands.
 */
export async function growViewport(
  target: GrowablePage,
  start: Readonly<Viewport>,
  deadline: number,
  firstSettle: SettleResult,
  settings: SettleSettings,
): Promise<GrownViewport> {
  // A page whose main thread never came back would not answer any of this.
  if (firstSettle.ended === "unresponsive") return NOT_GROWN;
  const { page, cdp, network } = target;
  const step = () => Math.max(0, Math.min(STEP_TIMEOUT_MS, deadline - Date.now()));
  const measured = await withTimeout(
    (page.evaluate(MEASURE) as Promise<ReturnType<typeof measureDocument>>).catch(() => null),
    step(),
  );
  if (!measured || measured.height <= start.height) return NOT_GROWN;
  const height = Math.min(Math.ceil(measured.height), MAX_VIEWPORT_HEIGHT);
  let grown = false;
  const restore = async () => {
    if (!grown) return;
    grown = false;
    await withTimeout(
      cdp.send("Page.setWebLifecycleState", { state: "frozen" }).catch(() => undefined),
      STEP_TIMEOUT_MS,
    );
    await withTimeout(
      cdp.send("Emulation.setDeviceMetricsOverride", metrics(start, start.height, true)).catch(() => undefined),
      STEP_TIMEOUT_MS,
    );
  };
  try {
    await cdp.send("Emulation.setDeviceMetricsOverride", metrics(start, height, false));
    grown = true;
    const grewAt = Date.now();
    await nextFrame(cdp, deadline);
    // Lazy elements start loading in that frame; the request (or the error event of a skipped image) takes a
    // hop to be seen, so the growth itself counts as the last activity and the idle windows follow it.
    const settled = await settle(page, network, deadline, {
      ...settings,
      maxMs: firstSettle.ended === "idle" ? settings.maxMs : Math.min(settings.maxMs, BUSY_PAGE_SETTLE_MS),
      ...(measured.lazy ? { activeAt: grewAt } : {}),
    });
    return { height, settled, restore };
  } catch {
    // The page went away or stopped answering while growing: it is analysed as it stands.
    return { height: grown ? height : null, settled: null, restore };
  }
}
