import { and, eq, type SQL } from "drizzle-orm";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { OrganizationScope } from "../auth/guard";
import { keysetPage, type Page, type PageRequest } from "../db/keyset";
import { evidence, trackedLink } from "../db/schema";
import { ApiError } from "../errors";
import type { Evidence } from "../schemas/evidence";
import { EVIDENCE_FIELDS, evidenceView, type EvidenceMeta } from "./views";

/**
 * Reading evidence (viewer+). Every query is scoped to the caller's organization: another organization's
 * evidence or link id reads exactly like an unknown one (404).
 */

const gunzipAsync = promisify(gunzip);

function notFound(what: "evidence" | "tracked link"): ApiError {
  return new ApiError(
    "NOT_FOUND",
    what === "evidence"
      ? "No evidence with this id in your organization."
      : "No tracked link with this id in your organization.",
    {
      hint: "Use an id from the lists of your active organization.",
    },
  );
}

/** GET /api/account/links/{id}/evidence: the link's records, newest first. */
export async function listLinkEvidence(
  ctx: OrganizationScope,
  linkId: string,
  page: PageRequest,
): Promise<Page<Evidence>> {
  const [link] = await ctx.db
    .select({ id: trackedLink.id })
    .from(trackedLink)
    .where(and(eq(trackedLink.organizationId, ctx.organization.id), eq(trackedLink.id, linkId)))
    .limit(1);
  if (!link) throw notFound("tracked link");
  return keysetPage(
    ctx.db.select(EVIDENCE_FIELDS).from(evidence).$dynamic(),
    {
      keys: { createdAt: evidence.capturedAt, id: evidence.id },
      direction: "desc",
      where: and(eq(evidence.organizationId, ctx.organization.id), eq(evidence.trackedLinkId, link.id)),
      page,
      keyOf: (row) => ({ createdAt: row.capturedAt, id: row.id }),
    },
    evidenceView,
  );
}

/** The organization's record `id` (another organization's reads as unknown). */
function recordOf(ctx: OrganizationScope, id: string): SQL | undefined {
  return and(eq(evidence.organizationId, ctx.organization.id), eq(evidence.id, id));
}

/** One record's fields as stored, or 404. */
async function findEvidence(ctx: OrganizationScope, id: string): Promise<EvidenceMeta> {
  const [row] = await ctx.db.select(EVIDENCE_FIELDS).from(evidence).where(recordOf(ctx, id)).limit(1);
  if (!row) throw notFound("evidence");
  return row;
}

/** GET /api/account/evidence/{id}. */
export async function getEvidence(ctx: OrganizationScope, id: string): Promise<Evidence> {
  return evidenceView(await findEvidence(ctx, id));
}

/** What the report prints of a record, read at once: its fields as stored (more than the API shows) and its PNGs. */
export interface ReportRecord {
  record: EvidenceMeta;
  png: Buffer | null;
  /** Googlebot's render (google-view.md §2), and whether the link is outlined in it; null when none was kept. */
  google: { png: Buffer; linkOutlined: boolean } | null;
}

/** The record as the report prints it, or 404. */
export async function evidenceForReport(ctx: OrganizationScope, id: string): Promise<ReportRecord> {
  const [row] = await ctx.db
    .select({
      ...EVIDENCE_FIELDS,
      png: evidence.screenshotPng,
      googlePng: evidence.googleScreenshotPng,
      googleLinkBox: evidence.googleLinkBox,
    })
    .from(evidence)
    .where(recordOf(ctx, id))
    .limit(1);
  if (!row) throw notFound("evidence");
  const { png, googlePng, googleLinkBox, ...record } = row;
  return {
    record,
    png: png ?? null,
    google: googlePng ? { png: googlePng, linkOutlined: googleLinkBox !== null } : null,
  };
}

/** One of a record's files as stored, or null when it has none (404 for an unknown id). */
async function storedFile(
  ctx: OrganizationScope,
  id: string,
  column: typeof evidence.screenshotPng | typeof evidence.googleScreenshotPng | typeof evidence.htmlGzip,
): Promise<Buffer | null> {
  const [row] = await ctx.db.select({ file: column }).from(evidence).where(recordOf(ctx, id)).limit(1);
  if (!row) throw notFound("evidence");
  return row.file ?? null;
}

/** The PNG of a record, or null when it has none (404 for an unknown id). */
export function evidenceScreenshot(ctx: OrganizationScope, id: string): Promise<Buffer | null> {
  return storedFile(ctx, id, evidence.screenshotPng);
}

/** Googlebot's PNG of a record (google-view.md §2), or null when it has none (404 for an unknown id). */
export function evidenceGoogleScreenshot(ctx: OrganizationScope, id: string): Promise<Buffer | null> {
  return storedFile(ctx, id, evidence.googleScreenshotPng);
}

/** The kept HTML bytes of a record, decompressed, or null when the body could not be read (404 for an unknown id). */
export async function evidenceHtml(ctx: OrganizationScope, id: string): Promise<Buffer | null> {
  const compressed = await storedFile(ctx, id, evidence.htmlGzip);
  return compressed ? gunzipAsync(compressed) : null;
}
