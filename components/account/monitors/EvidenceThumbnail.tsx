import { utcTime, type Evidence } from "@/lib/schemas/evidence";

/** The thumbnail's shape: the camera's 1280×800 viewport, so a shot of the top of a page fills it whole. */
const ASPECT = 5 / 8;
/** How much closer the thumbnail looks at an outlined link: a 1280 px page shrunk to a thumbnail shows it as a speck. */
const ZOOM = 2.5;

type Screenshot = NonNullable<Evidence["screenshot"]>;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * Where the screenshot sits in the thumbnail's frame, in percentages of the frame (so it holds at every
 * width): zoomed in and centred on the outlined link, but never leaving a gap at an edge; the top of the
 * page, whole, when there is no link to show.
 */
export function thumbnailCrop(
  screenshot: Screenshot,
  linkBox: Evidence["linkBox"],
): { width: number; left: number; top: number } {
  if (!linkBox) return { width: 100, left: 0, top: 0 };
  const frameHeight = screenshot.width * ASPECT;
  const imageHeight = (screenshot.height * ZOOM) / frameHeight; // in frame heights
  const x = (linkBox.x + linkBox.width / 2) / screenshot.width;
  const y = (linkBox.y + linkBox.height / 2) / frameHeight;
  return {
    width: ZOOM * 100,
    left: clamp(0.5 - x * ZOOM, 1 - ZOOM, 0) * 100,
    top: clamp(0.5 - y * ZOOM, Math.min(0, 1 - imageHeight), 0) * 100,
  };
}

/** A small picture of what the page showed, linking to the full PNG; a quiet box when there is none. */
export function EvidenceThumbnail({ evidence, href }: { evidence: Evidence; href: string }) {
  const frame =
    "relative block aspect-[8/5] w-full max-w-64 shrink-0 overflow-hidden rounded-md ring-1 ring-slate-300 sm:w-48 dark:ring-slate-600";
  if (!evidence.screenshot) {
    return (
      <div
        className={`${frame} flex items-center justify-center bg-slate-100 p-2 text-center text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-400`}
      >
        No screenshot: the page could not be photographed
      </div>
    );
  }
  const crop = thumbnailCrop(evidence.screenshot, evidence.linkBox);
  const what = evidence.linkBox
    ? "close up on the link, outlined in red"
    : "the top of the page (the link was missing or hidden)";
  return (
    <a href={href} className={`${frame} bg-white hover:ring-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600`}>
      {/* A plain <img>: next/image would fetch the PNG on the server, without the reader's session (it is the team's, not public). */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img
        src={href}
        alt={`Screenshot of the page on ${utcTime(evidence.capturedAt)}, ${what}`}
        width={evidence.screenshot.width}
        height={evidence.screenshot.height}
        loading="lazy"
        decoding="async"
        className="absolute h-auto max-w-none"
        style={{ width: `${crop.width}%`, left: `${crop.left}%`, top: `${crop.top}%` }}
      />
    </a>
  );
}
