import { eq, inArray } from "drizzle-orm";
import { inspectUrl } from "../analyzer";
import { loadDomainGroups } from "../account/group-lookup";
import type { AccountContext } from "../auth/guard";
import { evidence, trackedLink } from "../db/schema";
import { ApiError } from "../errors";
import { insertEvidence, pageProof, type EvidenceRecord } from "../evidence/record";
import { EVIDENCE_FIELDS, evidenceView } from "../evidence/views";
import type { EvidenceCapture } from "../schemas/evidence";
import { matchesTarget } from "./match";
import { findMonitor } from "./monitors";
import { judgeLink, pageFacts, seenLink, shotPosition } from "./placement";
import { owned } from "./scope";

/**
 * POST /api/account/monitors/{id}/evidence (member+): renders the page now and keeps one `manual` record
 * per tracked link (evidence-and-reports.md). It is not a check: no state, verdict, schedule or alert
 * moves, and nothing counts it. Each record shows the link as this render found it and the verdict this
 * render gives it (a loss counted at once, without the confirming check a schedule would wait for).
 * A page that does not load as a 2xx HTML page answers the analyzer's status and code and stores nothing.
 */
export async function captureEvidence(ctx: AccountContext, monitorId: string, signal?: AbortSignal): Promise<EvidenceCapture> {
  const row = await findMonitor(ctx, monitorId);
  const organizationId = ctx.organization.id;
  const links = await ctx.db.select().from(trackedLink).where(owned(trackedLink, organizationId, eq(trackedLink.monitorId, row.id)));
  const report = await inspectUrl(new URL(row.url), {
    settings: ctx.settings,
    groups: await loadDomainGroups(ctx.db, organizationId),
    clientKey: `monitor:${organizationId}`,
    checkLinks: (link) => links.some((tracked) => matchesTarget(link.href, tracked)),
    signals: true,
    evidence: true,
    priority: "interactive",
    signal,
  });
  const records: EvidenceRecord[] = [];
  try {
    const status = report.page.httpStatus;
    if (report.page.challenge) {
      throw new ApiError("UNPROCESSABLE_PAGE", "The page answered with a bot challenge instead of its content.", { upstreamStatus: status ?? undefined, hint: "Nothing was stored. Try again later." });
    }
    if (status !== null && (status < 200 || status > 299)) {
      throw new ApiError("UNPROCESSABLE_PAGE", `The page answered HTTP ${status}.`, { upstreamStatus: status, hint: "Nothing was stored." });
    }
    const facts = pageFacts(report, row.url);
    const capturedAt = ctx.now();
    for (const link of links) {
      const { placement, verdict } = judgeLink(link, report, facts, 1);
      records.push({
        organizationId,
        monitorId: row.id,
        trackedLinkId: link.id,
        checkId: null,
        capturedAt,
        reason: "manual",
        target: link.target,
        match: link.match,
        link: seenLink(placement),
        verdict: verdict.verdict,
        shot: (await report.camera?.shoot(shotPosition(placement))) ?? null,
      });
    }
  } finally {
    await report.camera?.release();
  }
  signal?.throwIfAborted();
  const proof = await pageProof({ pageUrl: row.url, finalUrl: report.page.finalUrl, httpStatus: report.page.httpStatus, rawHtml: report.rawHtml });
  // A link deleted while the page rendered has no record (its row is gone; the insert would fail on it).
  const ids = await ctx.db.transaction(async (tx) => {
    const still = new Set((await tx.select({ id: trackedLink.id }).from(trackedLink).where(owned(trackedLink, organizationId, eq(trackedLink.monitorId, row.id))).for("share")).map((link) => link.id));
    return insertEvidence(
      tx,
      proof,
      records.filter((record) => still.has(record.trackedLinkId)),
    );
  });
  if (ids.length === 0) return { items: [] };
  const rows = await ctx.db.select(EVIDENCE_FIELDS).from(evidence).where(owned(evidence, organizationId, inArray(evidence.id, ids)));
  const byId = new Map(rows.map((item) => [item.id, item]));
  return {
    items: ids.flatMap((id) => {
      const found = byId.get(id);
      return found ? [evidenceView(found)] : [];
    }),
  };
}
