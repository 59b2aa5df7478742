import { and, eq } from "drizzle-orm";
import type { EvidenceShot, PageReport } from "../analyzer";
import type { Db } from "../db/client";
import { linkTransition } from "../db/schema";
import { pageProof, type PageProof } from "../evidence/record";
import { mayNeedEvidence } from "../evidence/reason";
import { judgeLink, pageFacts, shotPosition } from "./placement";
import type { MonitorRow, TrackedLinkRow } from "./views";
import type { GoogleViewOutcome } from "./google-view";
import { shootGoogleView } from "./google-evidence";

/**
 * A check's evidence (evidence-and-reports.md), the part before its transaction: while the rendered page
 * is still open, judge every tracked link as the transaction will and photograph the ones whose state or
 * verdict moves. The transaction (store-check.ts) then names each record's reason and writes it.
 */

/** The screenshots a check took before its transaction, and the page's proof they share. */
export interface CheckEvidence {
  proof: PageProof;
  /** By tracked-link id; null: the page could not be photographed. */
  shots: Map<string, EvidenceShot | null>;
  /** Googlebot's, for the links whose verdict says the two views differ (google-evidence.ts); else absent. */
  googleShots: Map<string, EvidenceShot | null>;
}

/** The screenshots of the links this check moves; null (no screenshot, nothing hashed) when it moves none. */
export async function shootChanges(
  confirmChecks: number,
  row: MonitorRow,
  checked: readonly TrackedLinkRow[],
  report: PageReport,
  google: GoogleViewOutcome,
): Promise<CheckEvidence | null> {
  const facts = pageFacts(report, row.url);
  const moving = checked.flatMap((link) => {
    const judged = judgeLink(link, report, facts, confirmChecks, google.reading);
    const step = {
      stateBefore: link.state,
      stateAfter: judged.next.state,
      verdictBefore: link.verdict ?? null,
      verdictAfter: judged.verdict.verdict,
    };
    return mayNeedEvidence(step)
      ? [{ link, position: shotPosition(judged.placement), verdict: judged.verdict.verdict }]
      : [];
  });
  if (moving.length === 0) return null;
  const shots = new Map<string, EvidenceShot | null>();
  const googleShots = new Map<string, EvidenceShot | null>();
  for (const { link, position, verdict } of moving) {
    shots.set(link.id, (await report.camera?.shoot(position)) ?? null);
    googleShots.set(link.id, await shootGoogleView(google, link, verdict));
  }
  return { proof: await proofOf(row, report), shots, googleShots };
}

/** The page's part of every record of this render: its final URL, status, and sent HTML hashed and compressed. */
export function proofOf(row: MonitorRow, report: PageReport): Promise<PageProof> {
  return pageProof({
    pageUrl: row.url,
    finalUrl: report.page.finalUrl,
    httpStatus: report.page.httpStatus,
    rawHtml: report.rawHtml,
  });
}

/** Whether a tracked link was live at an earlier check (its first live sighting is `first_live` evidence). */
export async function wasLive(tx: Pick<Db, "select">, linkId: string): Promise<boolean> {
  const [found] = await tx
    .select({ id: linkTransition.id })
    .from(linkTransition)
    .where(and(eq(linkTransition.trackedLinkId, linkId), eq(linkTransition.toState, "live")))
    .limit(1);
  return found !== undefined;
}
