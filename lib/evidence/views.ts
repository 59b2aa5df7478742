import { evidence } from "../db/schema";
import { signedInLinkView } from "../db/stored-link";
import type { Evidence } from "../schemas/evidence";

/**
 * Evidence rows in, the API's Evidence out (lib/schemas/evidence.ts, no extra fields). Lists and reads
 * select EVIDENCE_FIELDS only: the HTML and the PNG are read by the routes that serve them.
 */

export const EVIDENCE_FIELDS = {
  id: evidence.id,
  organizationId: evidence.organizationId,
  monitorId: evidence.monitorId,
  trackedLinkId: evidence.trackedLinkId,
  checkId: evidence.checkId,
  capturedAt: evidence.capturedAt,
  reason: evidence.reason,
  pageUrl: evidence.pageUrl,
  target: evidence.target,
  match: evidence.match,
  finalUrl: evidence.finalUrl,
  httpStatus: evidence.httpStatus,
  htmlSha256: evidence.htmlSha256,
  htmlBytes: evidence.htmlBytes,
  link: evidence.link,
  verdict: evidence.verdict,
  screenshotWidth: evidence.screenshotWidth,
  screenshotHeight: evidence.screenshotHeight,
  screenshotBytes: evidence.screenshotBytes,
  linkBox: evidence.linkBox,
  googleScreenshotWidth: evidence.googleScreenshotWidth,
  googleScreenshotHeight: evidence.googleScreenshotHeight,
  googleScreenshotBytes: evidence.googleScreenshotBytes,
};

export type EvidenceMeta = {
  [K in keyof typeof EVIDENCE_FIELDS]: (typeof evidence.$inferSelect)[K];
};

export function evidenceView(row: EvidenceMeta): Evidence {
  const { screenshotWidth: width, screenshotHeight: height, screenshotBytes: bytes } = row;
  return {
    id: row.id,
    monitorId: row.monitorId,
    trackedLinkId: row.trackedLinkId,
    checkId: row.checkId,
    capturedAt: row.capturedAt.toISOString(),
    reason: row.reason,
    finalUrl: row.finalUrl,
    httpStatus: row.httpStatus,
    htmlSha256: row.htmlSha256,
    htmlBytes: row.htmlBytes,
    link: signedInLinkView(row.link ?? null),
    verdict: row.verdict ?? null,
    screenshot: width !== null && height !== null && bytes !== null ? { width, height, bytes } : null,
    linkBox: row.linkBox ?? null,
    googleScreenshot: googleShotOf(row),
  };
}

/** Googlebot's PNG (google-view.md §2), kept only when the verdict says the two views differ. */
function googleShotOf(row: EvidenceMeta): Evidence["googleScreenshot"] {
  const { googleScreenshotWidth: width, googleScreenshotHeight: height, googleScreenshotBytes: bytes } = row;
  return width !== null && height !== null && bytes !== null ? { width, height, bytes } : null;
}
