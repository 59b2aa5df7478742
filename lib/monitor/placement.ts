import type { PageReport } from "../analyzer";
import type { StoredCurrentLink, StoredLink } from "../db/schema/monitors";
import { toStoredLink } from "../db/stored-link";
import { UNKNOWN_SIGNALS, type LinkSignals, type Verdict } from "../schemas/verdict";
import {
  bestMatch,
  canonicalElsewhere,
  googleFacts,
  nextVerdict,
  redirectedAway,
  verdictOf,
  withGoogleView,
  type GoogleFacts,
  type GoogleReading,
  type PageFacts,
  type VerdictMove,
} from "../verdict";
import { matchesTarget, type TrackedTarget } from "./match";
import { nextLinkState, observe, type LinkExpectations, type NextLink } from "./state";
import type { TrackedLinkRow } from "./views";

/**
 * What one check that loaded the page says about a tracked link's placement (placement-verdict.md):
 * every link of the page that matches it (matchCount), the best match (the first that counts, else the
 * first at risk, else the first; lib/verdict/best-match.ts), whether a match was taken out by the page's
 * scripts, and the page facts every link's verdict shares. The state machine (state.ts) then runs on
 * the best match, and the verdict on the state it answers.
 */

/** The page facts of a check, for the verdict of every link on it. */
export function pageFacts(report: PageReport, monitoredUrl: string): PageFacts {
  const { page } = report;
  return {
    noindex: page.noindex,
    robotsTxt: page.robotsTxt,
    canonicalElsewhere: canonicalElsewhere(page.canonicalUrl, page.finalUrl) === true,
    redirected: redirectedAway(monitoredUrl, page.finalUrl),
  };
}

export interface Placement {
  /** The best match, as stored (public Link fields), or null when no link matches. */
  seen: StoredLink | null;
  /** The best match's signals (unknown when not seen). */
  signals: LinkSignals;
  matchCount: number;
  /** No link matches, and one that matched was in the HTML as the server sent it. */
  removedByScript: boolean;
  /** What Google's view says of this tracked link (google-view.md §2); null when off, not rendered or unavailable. */
  google: GoogleFacts | null;
}

/**
 * `google` is the Google view that stands for this check (a fresh render or the last one kept with the
 * monitor); null when the monitor's switch is off or none was rendered: then no link is in or out of it.
 */
export function findPlacement(
  report: PageReport,
  tracked: TrackedTarget & LinkExpectations,
  facts: PageFacts,
  google: GoogleReading | null = null,
): Placement {
  const links = report.analysis.links;
  const signalsOf = withGoogleView(links, report.linkSignals, google);
  const googleSays = googleFacts(google, (href) => matchesTarget(href, tracked));
  const candidates = links.flatMap((link, index) => {
    if (link.linkType === "ignored" || !matchesTarget(link.href, tracked)) return [];
    const signals = signalsOf[index] ?? UNKNOWN_SIGNALS;
    const observed = observe(link, tracked);
    const verdict = verdictOf({
      link: { ...link, signals },
      broken: observed === "broken",
      removedByScript: false,
      page: facts,
      google: googleSays,
    });
    return [{ link: { link, signals }, verdict, meetsExpectations: observed === "live" }];
  });
  const best = bestMatch(candidates);
  return {
    seen: best ? toStoredLink(best.link.link) : null,
    signals: best?.link.signals ?? UNKNOWN_SIGNALS,
    matchCount: candidates.length,
    removedByScript: best === null && (report.removedByScript ?? []).some((href) => matchesTarget(href, tracked)),
    google: googleSays,
  };
}

/** The link to keep as `current`: the one seen now with its signals, else (missing) the one kept. */
export function currentLink(placement: Placement, kept: StoredCurrentLink | null): StoredCurrentLink | null {
  return placement.seen ? { ...placement.seen, signals: placement.signals } : kept;
}

/** The verdict after this check (lib/verdict/next.ts), given the state the state machine answered. */
export function verdictAfter(
  placement: Placement,
  facts: PageFacts,
  previous: Verdict | null,
  state: string,
): VerdictMove {
  return nextVerdict({
    previous,
    state,
    input: {
      link: placement.seen ? { ...placement.seen, signals: placement.signals } : null,
      broken: false,
      removedByScript: placement.removedByScript,
      page: facts,
      google: placement.google,
    },
  });
}

/** Everything one check concludes about a tracked link: its placement, its next state and its verdict. */
export interface LinkJudgement {
  placement: Placement;
  next: NextLink;
  verdict: VerdictMove;
}

/** What a check that loaded the page makes of a tracked link (the same for the evidence pre-pass and the transaction). */
export function judgeLink(
  link: TrackedLinkRow,
  report: PageReport,
  facts: PageFacts,
  confirmChecks: number,
  google: GoogleReading | null = null,
): LinkJudgement {
  const placement = findPlacement(
    report,
    {
      target: link.target,
      match: link.match,
      expectedRel: link.expectedRel ?? null,
      expectedAnchor: link.expectedAnchor,
    },
    facts,
    google,
  );
  const kept = link.current ? toStoredLink(link.current) : null;
  const next = nextLinkState(
    {
      state: link.state,
      pendingState: link.pendingState ?? null,
      pendingCount: link.pendingCount,
      current: kept,
      expectedRel: link.expectedRel ?? null,
      expectedAnchor: link.expectedAnchor,
    },
    placement.seen,
    { confirmChecks },
  );
  return { placement, next, verdict: verdictAfter(placement, facts, link.verdict ?? null, next.state) };
}

/** Where an evidence screenshot points: the best match when it can be seen, else (missing or hidden) the top of the page. */
export function shotPosition(placement: Placement): number | null {
  return placement.seen && placement.signals.hidden !== true ? placement.seen.position : null;
}
