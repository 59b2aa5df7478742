import { z } from "zod";
import { isoTime, listPaging } from "./common";
import { SignedInLinkSchema, VerdictSchema } from "./verdict";

/**
 * Evidence (evidence-and-reports.md "Evidence"): dated proof of what a monitored page showed, captured
 * from the render of the check that changed a tracked link's state or verdict (or the first time it was
 * seen live), or on demand. Never edited; kept EVIDENCE_RETENTION_DAYS.
 */

/** Why a record exists; one record per tracked link per check at most, `first_live` winning. */
export const EVIDENCE_REASONS = ["first_live", "state_change", "verdict_change", "manual"] as const;
export type EvidenceReason = (typeof EVIDENCE_REASONS)[number];

/** Words for each reason (the app and the PDF). */
export const EVIDENCE_REASON_WORDS: Record<EvidenceReason, string> = {
  first_live: "First seen live",
  state_change: "State changed",
  verdict_change: "Verdict changed",
  manual: "Captured on request",
};

/**
 * A capture time as evidence shows it (the app, the PDF): UTC to the second, "2026-11-26 10:42:13 UTC".
 * Proof handed to a vendor must read the same in every time zone, and two captures a few seconds apart
 * must not look alike.
 */
export function utcTime(value: Date | string): string {
  return `${new Date(value).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A box in the screenshot's pixels. */
export const LinkBoxSchema = z.strictObject({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});
export type LinkBox = z.infer<typeof LinkBoxSchema>;

export const EvidenceSchema = z
  .strictObject({
    id: z.string(),
    monitorId: z.string(),
    trackedLinkId: z.string(),
    /** The check whose render it comes from; null for a capture on request (it is not a check). */
    checkId: z.string().nullable(),
    capturedAt: isoTime,
    reason: z.enum(EVIDENCE_REASONS),
    /** Where the monitored page ended after redirects. */
    finalUrl: z.string().nullable(),
    httpStatus: z.number().int().nullable(),
    /** Lowercase hex SHA-256 of the page's HTML as the server sent it, and its length in bytes (null when the body could not be read). */
    htmlSha256: z.string().nullable(),
    htmlBytes: z.number().int().nullable(),
    /** The link as seen (public Link fields and signals), or null when missing. */
    link: SignedInLinkSchema.nullable(),
    verdict: VerdictSchema.nullable(),
    /** The PNG's size; null when the page could not be photographed (it hung or crashed after the analysis). */
    screenshot: z
      .strictObject({ width: z.number().int(), height: z.number().int(), bytes: z.number().int() })
      .nullable(),
    /** The link's box in the PNG's pixels; null for the top of the page (link missing or hidden). */
    linkBox: LinkBoxSchema.nullable(),
    /**
     * A PNG of Googlebot's render (google-view.md §2), kept when the verdict carries `not_in_google_view`
     * or `shown_only_to_googlebot` (the link outlined when present); downloaded from
     * /api/account/evidence/{id}/google.png. null otherwise.
     */
    googleScreenshot: z
      .strictObject({ width: z.number().int(), height: z.number().int(), bytes: z.number().int() })
      .nullable(),
  })
  .meta({ id: "Evidence" });
export type Evidence = z.infer<typeof EvidenceSchema>;

/** POST /api/account/monitors/{id}/evidence: one record per tracked link of the monitor. */
export const EvidenceCaptureSchema = z.strictObject({ items: z.array(EvidenceSchema) });
export type EvidenceCapture = z.infer<typeof EvidenceCaptureSchema>;

/** GET /api/account/links/{id}/evidence: newest first, a page at a time. */
export const evidenceListQuerySchema = z.strictObject(listPaging);
