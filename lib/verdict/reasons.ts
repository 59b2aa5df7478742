import {
  BOILERPLATE_REGIONS,
  DOES_NOT_COUNT_REASONS,
  VERDICT_REASONS,
  type LinkSignals,
  type Verdict,
  type VerdictReason,
  type VerdictValue,
} from "../schemas/verdict";
import type { GoogleFacts } from "./google-view";

/**
 * The verdict of a tracked link (placement-verdict.md "Verdict of a tracked link"), as a pure function:
 * `does_not_count` when any reason of the first list applies, else `at_risk` when any of the second
 * applies, else `counts`; `reasons` lists every reason that applies, in the order of the lists.
 */

/** What the page says, the same for every link on it. */
export interface PageFacts {
  noindex: boolean;
  robotsTxt: "allowed" | "disallowed" | "unavailable" | null;
  canonicalElsewhere: boolean;
  /** The final URL is not the monitored one (page_redirected); false where there is no monitored URL (an audit, MCP). */
  redirected: boolean;
}

/** The link on the page (the best match), as the verdict reads it. */
export interface PresentLink {
  isNofollow: boolean | null;
  isSponsored: boolean | null;
  isUgc: boolean | null;
  signals: LinkSignals;
}

export interface VerdictInput {
  /** The link on the page, or null when the tracked link is missing. */
  link: PresentLink | null;
  /** The tracked link's state is `broken` (confirmed). */
  broken: boolean;
  /** Missing, and a matching link was in the raw HTML (the page's scripts took it out). */
  removedByScript: boolean;
  page: PageFacts;
  /**
   * Google's view (google-view.md §2): Googlebot's render is noindex, and whether it has a link matching
   * the tracked one; null when off, not rendered or unavailable (no reason from Google's view then).
   * Absent: null.
   */
  google?: GoogleFacts | null;
}

const DOES_NOT_COUNT: ReadonlySet<VerdictReason> = new Set(DOES_NOT_COUNT_REASONS);

/** Every reason that applies, in the spec's order. */
export function reasonsOf(input: VerdictInput): VerdictReason[] {
  const { link, page } = input;
  const google = input.google ?? null;
  const applies: Record<VerdictReason, boolean> = {
    missing: link === null,
    removed_by_script: link === null && input.removedByScript,
    broken_target: link !== null && input.broken,
    nofollow: link?.isNofollow === true,
    sponsored: link?.isSponsored === true,
    ugc: link?.isUgc === true,
    hidden: link?.signals.hidden === true,
    page_noindex: page.noindex || google?.noindex === true,
    robots_disallowed: page.robotsTxt === "disallowed",
    // The link's own signal says it; off or unavailable, it is null and nothing is said.
    not_in_google_view: google !== null && link?.signals.inGoogleView === false,
    shown_only_to_googlebot: link === null && google?.hasMatch === true,
    script_only: link?.signals.inRawHtml === false,
    canonical_elsewhere: page.canonicalElsewhere,
    page_redirected: page.redirected,
    boilerplate_region: link?.signals.region != null && BOILERPLATE_REGIONS.includes(link.signals.region),
  };
  return VERDICT_REASONS.filter((reason) => applies[reason]);
}

/** The value the reasons give. */
export function valueOf(reasons: readonly VerdictReason[]): VerdictValue {
  if (reasons.some((reason) => DOES_NOT_COUNT.has(reason))) return "does_not_count";
  return reasons.length > 0 ? "at_risk" : "counts";
}

export function verdictOf(input: VerdictInput): Verdict {
  const reasons = reasonsOf(input);
  return { value: valueOf(reasons), reasons };
}

/** counts < at_risk < does_not_count: the order best-match choice and sorting use. */
export function verdictRank(value: VerdictValue): number {
  return value === "counts" ? 0 : value === "at_risk" ? 1 : 2;
}
