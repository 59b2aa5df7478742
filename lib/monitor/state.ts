import { isBrokenStatus } from "../link-status";
import type { AlertType } from "../db/schema/alerts";
import type { LinkState, StoredLink } from "../db/schema/monitors";

/**
 * The link-state machine of docs/spec/account-api.md, as a pure function: what one check saw of a tracked link,
 * and what the link was before, give its next state and the alert events of the change. The scheduler
 * and the database only feed it and store what it answers (tests/unit/monitor/state.test.ts walks
 * every transition).
 *
 * - A present link is `broken` when its target's status counts as broken (the public stats rule),
 *   else `rel_mismatch` / `anchor_mismatch` when an expectation is not met, else `live`.
 * - `missing` and `broken` need `confirmChecks` consecutive checks that saw them so; until then the
 *   state stays and the pending loss is counted (the caller schedules the confirming check soon).
 * - Everything else applies at once: a link seen with the wrong rel is evidence, not a failed fetch.
 * - Without an expectation, a rel or anchor that differs from the previous observation is still an
 *   event (`rel_changed` / `anchor_changed`) without a state change: "the day it turns nofollow" is
 *   the thing our users pay to learn, whether or not they wrote the rel down.
 */

export type ExpectedRel = "follow" | "nofollow" | "sponsored" | "ugc";
export type Rel = ExpectedRel;

export interface LinkExpectations {
  expectedRel: ExpectedRel | null;
  expectedAnchor: string | null;
}

export interface PreviousLink extends LinkExpectations {
  state: LinkState;
  pendingState: "missing" | "broken" | null;
  pendingCount: number;
  /** The link as last observed (null if never seen, or gone). */
  current: StoredLink | null;
}

export interface LinkEvent {
  type: Exclude<AlertType, "page_noindex" | "page_unreachable" | "link_expiring" | "verdict_changed">;
  before: { state: LinkState; link: StoredLink | null };
  after: { state: LinkState; link: StoredLink | null };
}

export interface NextLink {
  state: LinkState;
  pendingState: "missing" | "broken" | null;
  pendingCount: number;
  /** What this check alone saw. */
  observed: LinkState;
  /** The link to keep as `current`: the one seen now, else (missing) the last one seen. */
  current: StoredLink | null;
  /** A loss waits for confirmation: the caller schedules the confirming check within minutes. */
  needsConfirmation: boolean;
  events: LinkEvent[];
}

/** The rel of a link as one word: sponsored and ugc outrank nofollow (they imply it for search engines). */
export function relOf(link: Pick<StoredLink, "isNofollow" | "isSponsored" | "isUgc">): Rel {
  if (link.isSponsored) return "sponsored";
  if (link.isUgc) return "ugc";
  if (link.isNofollow) return "nofollow";
  return "follow";
}

/** Whether the link satisfies an expected rel: `follow` means none of the three flags. */
export function relMeets(
  link: Pick<StoredLink, "isNofollow" | "isSponsored" | "isUgc">,
  expected: ExpectedRel,
): boolean {
  switch (expected) {
    case "follow":
      return !link.isNofollow && !link.isSponsored && !link.isUgc;
    case "nofollow":
      return link.isNofollow;
    case "sponsored":
      return link.isSponsored;
    case "ugc":
      return link.isUgc;
  }
}

/** Anchor comparison: whitespace collapsed, case-insensitive (a CMS re-flowing text is not a change). */
export function normalizeAnchor(text: string | null): string {
  return (text ?? "").replace(/\s+/g, " ").trim().toLowerCase();
}

/** What one observation says on its own: missing, broken, a mismatch, or live. */
export function observe(
  link: Pick<StoredLink, "httpStatus" | "isNofollow" | "isSponsored" | "isUgc" | "anchorText"> | null,
  expectations: LinkExpectations,
): LinkState {
  if (!link) return "missing";
  if (isBrokenStatus(link.httpStatus)) return "broken";
  if (expectations.expectedRel && !relMeets(link, expectations.expectedRel)) return "rel_mismatch";
  if (
    expectations.expectedAnchor !== null &&
    normalizeAnchor(link.anchorText) !== normalizeAnchor(expectations.expectedAnchor)
  )
    return "anchor_mismatch";
  return "live";
}

const NEEDS_CONFIRMATION: ReadonlySet<LinkState> = new Set(["missing", "broken"]);

/** The next state of a tracked link after one check that loaded its page (page errors never get here). */
export function nextLinkState(
  previous: PreviousLink,
  seen: StoredLink | null,
  settings: { confirmChecks: number },
): NextLink {
  const observed = observe(seen, previous);
  const current = seen ?? previous.current;

  let state = previous.state;
  let pendingState: NextLink["pendingState"] = null;
  let pendingCount = 0;
  if (observed === previous.state) {
    // Seen as it already is: any pending loss of another kind is over.
  } else if (NEEDS_CONFIRMATION.has(observed)) {
    const loss = observed as "missing" | "broken";
    pendingCount = previous.pendingState === loss ? previous.pendingCount + 1 : 1;
    if (pendingCount >= Math.max(1, settings.confirmChecks)) {
      state = loss;
      pendingCount = 0;
    } else {
      pendingState = loss;
    }
  } else {
    state = observed;
  }

  const events =
    state === previous.state ? sameStateEvents(previous, seen, state) : transitionEvents(previous, seen, state);
  return { state, pendingState, pendingCount, observed, current, needsConfirmation: pendingState !== null, events };
}

function transitionEvents(previous: PreviousLink, seen: StoredLink | null, state: LinkState): LinkEvent[] {
  const before = { state: previous.state, link: previous.current };
  const after = { state, link: seen };
  const event = (type: LinkEvent["type"]): LinkEvent => ({ type, before, after });
  switch (state) {
    case "missing":
      return [event("link_missing")];
    case "broken":
      return [event("link_broken")];
    case "pending":
      return [];
    default: {
      // Present now (live or a mismatch). Coming back from a loss is news of its own.
      const events: LinkEvent[] = [];
      if (previous.state === "missing") events.push(event("link_restored"));
      if (previous.state === "broken") events.push(event("link_fixed"));
      const relWasWrong = previous.state === "rel_mismatch";
      const anchorWasWrong = previous.state === "anchor_mismatch";
      if (state === "rel_mismatch" || relWasWrong) events.push(event("rel_changed"));
      if (state === "anchor_mismatch" || anchorWasWrong) events.push(event("anchor_changed"));
      return events;
    }
  }
}

/**
 * No state change, but the link is there in both checks: a rel or anchor nobody set an expectation for
 * that differs from the last observation is still worth an event.
 */
function sameStateEvents(previous: PreviousLink, seen: StoredLink | null, state: LinkState): LinkEvent[] {
  const last = previous.current;
  if (!seen || !last || state === "missing" || state === "broken" || previous.state === "pending") return [];
  const before = { state: previous.state, link: last };
  const after = { state, link: seen };
  const events: LinkEvent[] = [];
  if (previous.expectedRel === null && relOf(seen) !== relOf(last)) events.push({ type: "rel_changed", before, after });
  if (previous.expectedAnchor === null && normalizeAnchor(seen.anchorText) !== normalizeAnchor(last.anchorText))
    events.push({ type: "anchor_changed", before, after });
  return events;
}
