import { createHash, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { EvidenceShot } from "../analyzer";
import type { Db } from "../db/client";
import { evidence } from "../db/schema";
import type { StoredCurrentLink } from "../db/schema/monitors";
import type { EvidenceReason } from "../schemas/evidence";
import type { Verdict } from "../schemas/verdict";

/**
 * Writing evidence (evidence-and-reports.md). The page's part (its HTML as the server sent it, hashed and
 * compressed once per render) is prepared outside the check's transaction; the rows are inserted inside
 * it, so evidence exists exactly when the change it proves does.
 */

const gzipAsync = promisify(gzip);

/** What one render proves about the page, shared by every record it makes. */
export interface PageProof {
  pageUrl: string;
  finalUrl: string | null;
  httpStatus: number | null;
  /** Lowercase hex SHA-256 of the bytes as received (after content decoding), their length, and the bytes gzip-compressed. */
  htmlSha256: string | null;
  htmlBytes: number | null;
  htmlGzip: Buffer | null;
}

/** Hashes and compresses the navigation response body (null when the render could not read it). */
export async function pageProof(page: {
  pageUrl: string;
  finalUrl: string | null;
  httpStatus: number | null;
  rawHtml: Buffer | null;
}): Promise<PageProof> {
  const raw = page.rawHtml;
  return {
    pageUrl: page.pageUrl,
    finalUrl: page.finalUrl,
    httpStatus: page.httpStatus,
    htmlSha256: raw ? createHash("sha256").update(raw).digest("hex") : null,
    htmlBytes: raw ? raw.length : null,
    htmlGzip: raw ? await gzipAsync(raw) : null,
  };
}

/**
 * One record: the tracked link as it stood, and the screenshots taken for it: the visitor's render's, and
 * Googlebot's when the verdict says the two views differ (google-view.md §2; lib/evidence/google-shot.ts).
 */
export interface EvidenceRecord {
  organizationId: string;
  monitorId: string;
  trackedLinkId: string;
  checkId: string | null;
  capturedAt: Date;
  reason: EvidenceReason;
  target: string;
  match: "exact" | "prefix" | "domain";
  link: StoredCurrentLink | null;
  verdict: Verdict | null;
  shot: EvidenceShot | null;
  googleShot: EvidenceShot | null;
}

/** Inserts the records (in the caller's transaction); answers their ids in order. */
export async function insertEvidence(
  tx: Pick<Db, "insert">,
  proof: PageProof,
  records: readonly EvidenceRecord[],
): Promise<string[]> {
  if (records.length === 0) return [];
  const rows = records.map((record) => ({
    id: randomUUID(),
    organizationId: record.organizationId,
    monitorId: record.monitorId,
    trackedLinkId: record.trackedLinkId,
    checkId: record.checkId,
    capturedAt: record.capturedAt,
    reason: record.reason,
    pageUrl: proof.pageUrl,
    target: record.target,
    match: record.match,
    finalUrl: proof.finalUrl,
    httpStatus: proof.httpStatus,
    htmlSha256: proof.htmlSha256,
    htmlBytes: proof.htmlBytes,
    htmlGzip: proof.htmlGzip,
    link: record.link,
    verdict: record.verdict,
    screenshotPng: record.shot?.png ?? null,
    screenshotWidth: record.shot?.width ?? null,
    screenshotHeight: record.shot?.height ?? null,
    screenshotBytes: record.shot?.png.length ?? null,
    linkBox: record.shot?.linkBox ?? null,
    googleScreenshotPng: record.googleShot?.png ?? null,
    googleScreenshotWidth: record.googleShot?.width ?? null,
    googleScreenshotHeight: record.googleShot?.height ?? null,
    googleScreenshotBytes: record.googleShot?.png.length ?? null,
    googleLinkBox: record.googleShot?.linkBox ?? null,
  }));
  await tx.insert(evidence).values(rows);
  return rows.map((row) => row.id);
}
