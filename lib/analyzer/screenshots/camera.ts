import type { Page } from "puppeteer-core";
import { log } from "@/lib/log";
import { withTimeout } from "@/lib/timeout";
import { clearFrames, frameLink, scrollToTop, type FrameBox, type FrameRequest } from "./frame";
import { pageScript } from "../render/page-script";
import type { PageLease } from "../render/lease";
import { HIDDEN_ATTRIBUTE } from "../render/visibility";
import type { ShadowKeeperAccess } from "../render/shadow-roots";

/**
 * The evidence camera (evidence-and-reports.md "Evidence"): screenshots of a signed-in render's own page,
 * taken after the analysis, only for the links a check decides need proof. The render keeps its page open
 * for this (a PageLease, lib/analyzer/render/lease.ts) frozen and with its network already cut, so it neither moves nor
 * reaches anything meanwhile; a check that needs no screenshot only releases it.
 *
 * A shot is the 1280×800 viewport the page was analysed at, as PNG: scrolled so the link is in the middle
 * with an outline drawn around it (`linkBox`: its box in the PNG's pixels), or the top of the page when no
 * link is asked for (missing or hidden). Never taller than 4,096 px nor over 2 MiB: an oversized PNG is
 * taken again as a narrower band around the link.
 */

/** One screenshot: PNG bytes, the image's size, and the link's box in it (null: the top of the page). */
export interface EvidenceShot {
  png: Buffer;
  width: number;
  height: number;
  linkBox: FrameBox | null;
}

/** A rendered page's camera: shoot() as often as needed, then release() (always). */
export interface EvidenceCamera {
  /**
   * Screenshots the link at `position` (the analysis's 1-based position) or, with null, the top of the page.
   * Answers null when the page cannot be photographed any more (it hung, crashed or was closed).
   */
  shoot(position: number | null): Promise<EvidenceShot | null>;
  /** Closes the page. Every camera must be released. */
  release(): Promise<void>;
}

/** Spec limits of a screenshot. */
export const SHOT_MAX_BYTES = 2 * 1024 * 1024;
export const SHOT_MAX_HEIGHT = 4_096;
/** One step (framing, the capture) that takes longer than this is given up: the evidence has no screenshot. */
const STEP_TIMEOUT_MS = 10_000;
/** Bands tried, in CSS pixels around the link, when the whole viewport's PNG is over the byte cap. */
const FALLBACK_BANDS = [400, 200];
const OUTLINE_TAG = "linklens-evidence-outline";

/** Width and height from a PNG's IHDR chunk (bytes 16–23). */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || png.readUInt32BE(0) !== 0x89504e47) return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

interface AnalysedLink {
  href: string;
}

/**
 * Builds the camera of a leased page; `links` are the analysis's links, `marker` the visibility pass's nonce,
 * `shadow` how the page's shadow roots are reached (the render's CapturedPage.shadow).
 */
export function createEvidenceCamera(
  lease: PageLease,
  links: readonly AnalysedLink[],
  marker: string | null,
  shadow: ShadowKeeperAccess,
): EvidenceCamera {
  let line: Promise<unknown> = Promise.resolve();
  let released = false;

  const request = (position: number): FrameRequest | null => {
    const link = links[position - 1];
    if (!link || marker === null) return null;
    let ordinal = 0;
    for (let index = 0; index < position - 1; index += 1) if (links[index]?.href === link.href) ordinal += 1;
    return {
      marker,
      attribute: HIDDEN_ATTRIBUTE,
      href: link.href,
      ordinal,
      index: position - 1,
      outlineTag: OUTLINE_TAG,
      keeperKey: shadow.key,
      keeperSecret: shadow.secret,
    };
  };

  const capture = async (position: number | null): Promise<EvidenceShot | null> => {
    const page = lease.page;
    // The kept page was frozen after its render; a screenshot needs it to paint.
    await lease.wake();
    await withTimeout(page.evaluate(pageScript(clearFrames, OUTLINE_TAG)), STEP_TIMEOUT_MS);
    const asked = position === null ? null : request(position);
    const box = asked
      ? ((await withTimeout(
          page.evaluate(pageScript(frameLink, asked)) as Promise<FrameBox | null>,
          STEP_TIMEOUT_MS,
        )) ?? null)
      : null;
    if (!box) await withTimeout(page.evaluate(pageScript(scrollToTop)), STEP_TIMEOUT_MS);
    try {
      const whole = await screenshot(page);
      if (!whole) return null;
      if (whole.length <= SHOT_MAX_BYTES) return shotOf(whole, box);
      // Over the byte cap: a band around the link (or the top), narrower each time.
      for (const band of FALLBACK_BANDS) {
        const cut = await bandShot(page, box, band);
        if (cut && cut.png.length <= SHOT_MAX_BYTES) return shotOf(cut.png, cut.box);
      }
      return null;
    } finally {
      await withTimeout(page.evaluate(pageScript(clearFrames, OUTLINE_TAG)), STEP_TIMEOUT_MS);
    }
  };

  return {
    shoot(position) {
      if (released) return Promise.resolve(null);
      // One page, one scroll position: shots are taken one after another.
      const shot = line.then(() =>
        capture(position).catch((error: unknown) => {
          log.debug({ err: error instanceof Error ? error.message : String(error) }, "evidence screenshot failed");
          return null;
        }),
      );
      line = shot;
      return shot;
    },
    async release() {
      released = true;
      await line.catch(() => undefined);
      await lease.close();
    },
  };
}

async function screenshot(
  page: Page,
  clip?: { x: number; y: number; width: number; height: number },
): Promise<Buffer | null> {
  const taken = await withTimeout(
    page.screenshot({ type: "png", ...(clip ? { clip, captureBeyondViewport: false } : {}) }),
    STEP_TIMEOUT_MS,
  );
  return taken ? Buffer.from(taken) : null;
}

/** A band of `band` CSS pixels of the viewport's height, centred on the box (or from the top), clipped in page coordinates. */
async function bandShot(
  page: Page,
  box: FrameBox | null,
  band: number,
): Promise<{ png: Buffer; box: FrameBox | null } | null> {
  const view = await withTimeout(
    page.evaluate(() => ({
      left: window.visualViewport?.pageLeft ?? window.scrollX,
      top: window.visualViewport?.pageTop ?? window.scrollY,
      width: window.innerWidth,
      height: window.innerHeight,
    })),
    STEP_TIMEOUT_MS,
  );
  if (!view) return null;
  const height = Math.min(band, view.height);
  const centre = box ? box.y + box.height / 2 : height / 2;
  const top = Math.round(Math.min(Math.max(0, centre - height / 2), view.height - height));
  const png = await screenshot(page, { x: view.left, y: view.top + top, width: view.width, height });
  if (!png) return null;
  const moved = box ? clipBox({ ...box, y: box.y - top }, view.width, height) : null;
  return { png, box: moved };
}

function clipBox(box: FrameBox, width: number, height: number): FrameBox | null {
  const x1 = Math.max(0, box.x);
  const y1 = Math.max(0, box.y);
  const x2 = Math.min(width, box.x + box.width);
  const y2 = Math.min(height, box.y + box.height);
  return x2 > x1 && y2 > y1 ? { x: x1, y: y1, width: x2 - x1, height: y2 - y1 } : null;
}

function shotOf(png: Buffer, box: FrameBox | null): EvidenceShot | null {
  const size = pngSize(png);
  if (!size || size.height > SHOT_MAX_HEIGHT) return null;
  return { png, width: size.width, height: size.height, linkBox: box ? clipBox(box, size.width, size.height) : null };
}
