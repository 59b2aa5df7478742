import { eq, inArray } from "drizzle-orm";
import { spendAuditUnit } from "../account/audit-quota";
import { inspectUrl } from "../analyzer";
import type { AccountContext } from "../auth/guard";
import { evidence, trackedLink } from "../db/schema";
import { ApiError } from "../errors";
import { insertEvidence, type EvidenceRecord } from "../evidence/record";
import { EVIDENCE_FIELDS, evidenceView } from "../evidence/views";
import type { EvidenceCapture } from "../schemas/evidence";
import { proofOf } from "./check-evidence";
import { monitoredRenderOptions, notThePage } from "./monitored-render";
import { findMonitor } from "./monitors";
import type { MonitorRow } from "./views";
import { currentLink, judgeLink, pageFacts, shotPosition } from "./placement";
import { owned } from "./scope";
import { googleViewFor, NO_GOOGLE_VIEW, type GoogleViewOutcome } from "./google-view";
import { shootGoogleView } from "./google-evidence";

/**
 * POST /api/account/monitors/{id}/evidence (member+): renders the page now and keeps one `manual` record
 * per tracked link (evidence-and-reports.md). It is not a check: no state, verdict, schedule or alert
 * moves. It is a render on request, so it spends a unit of the organization's daily audit quota like a
 * saved audit (429 when spent; given back when the capture fails, as a failed audit's is). Each record
 * shows the link as this render found it and the verdict this render gives it (a loss counted at once,
 * without the confirming check a schedule would wait for). A page that does not load as a 2xx HTML page
 * answers the analyzer's status and code and stores nothing. Answers the records and the quota's headers.
 */
export async function captureEvidence(
  ctx: AccountContext,
  monitorId: string,
  signal?: AbortSignal,
): Promise<{ capture: EvidenceCapture; headers: Record<string, string> }> {
  const row = await findMonitor(ctx, monitorId);
  const { result, headers } = await spendAuditUnit(
    ctx.db,
    ctx.organization.id,
    ctx.settings.ORG_AUDITS_PER_DAY,
    () => capture(ctx, row, signal),
    ctx.now(),
  );
  return { capture: result, headers };
}

async function capture(
  ctx: AccountContext,
  row: MonitorRow,
  signal: AbortSignal | undefined,
): Promise<EvidenceCapture> {
  const organizationId = ctx.organization.id;
  const links = await ctx.db
    .select()
    .from(trackedLink)
    .where(owned(trackedLink, organizationId, eq(trackedLink.monitorId, row.id)));
  const report = await inspectUrl(
    new URL(row.url),
    await monitoredRenderOptions(ctx.db, ctx.settings, row, links, "interactive", signal),
  );
  const records: EvidenceRecord[] = [];
  let google: GoogleViewOutcome = NO_GOOGLE_VIEW;
  try {
    if (notThePage(report)) {
      const status = report.page.httpStatus;
      const message = report.page.challenge
        ? "The page answered with a bot challenge instead of its content."
        : `The page answered HTTP ${status}.`;
      throw new ApiError("UNPROCESSABLE_PAGE", message, {
        upstreamStatus: status ?? undefined,
        hint: "Nothing was stored. Try again later.",
      });
    }
    // An evidence capture renders Google's view now (google-view.md §2); Googlebot's page stays open for
    // the screenshots of links whose verdict names it. It is not a check: the monitor keeps its own view.
    google = await googleViewFor(row, true, {
      settings: ctx.settings,
      clientKey: `monitor:${organizationId}`,
      priority: "interactive",
      signal,
      evidence: true,
      now: ctx.now,
    });
    const facts = pageFacts(report, row.url);
    const capturedAt = ctx.now();
    for (const link of links) {
      const { placement, verdict } = judgeLink(link, report, facts, 1, google.reading);
      records.push({
        organizationId,
        monitorId: row.id,
        trackedLinkId: link.id,
        checkId: null,
        capturedAt,
        reason: "manual",
        target: link.target,
        match: link.match,
        link: currentLink(placement, null),
        verdict: verdict.verdict,
        shot: (await report.camera?.shoot(shotPosition(placement))) ?? null,
        googleShot: await shootGoogleView(google, link, verdict.verdict),
      });
    }
  } finally {
    await Promise.all([report.camera?.release(), google.fresh?.camera?.release()]);
  }
  signal?.throwIfAborted();
  const proof = await proofOf(row, report);
  // A link deleted while the page rendered has no record (its row is gone; the insert would fail on it).
  const ids = await ctx.db.transaction(async (tx) => {
    const still = new Set(
      (
        await tx
          .select({ id: trackedLink.id })
          .from(trackedLink)
          .where(owned(trackedLink, organizationId, eq(trackedLink.monitorId, row.id)))
          .for("share")
      ).map((link) => link.id),
    );
    return insertEvidence(
      tx,
      proof,
      records.filter((record) => still.has(record.trackedLinkId)),
    );
  });
  if (ids.length === 0) return { items: [] };
  const rows = await ctx.db
    .select(EVIDENCE_FIELDS)
    .from(evidence)
    .where(owned(evidence, organizationId, inArray(evidence.id, ids)));
  const byId = new Map(rows.map((item) => [item.id, item]));
  return {
    items: ids.flatMap((id) => {
      const found = byId.get(id);
      return found ? [evidenceView(found)] : [];
    }),
  };
}
