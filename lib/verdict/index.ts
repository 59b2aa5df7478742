/**
 * Placement verdict (placement-verdict.md): pure rules, no I/O. Does a tracked link still pass value,
 * and why not? The check (lib/monitor/run-check.ts), saved audits (lib/account) and the MCP tools (lib/mcp)
 * feed it what the analyzer saw; the words for people are lib/schemas/verdict.ts's.
 */
export { bestMatch, type Candidate } from "./best-match";
export { nextVerdict, verdictEventDue, type VerdictMove, type VerdictStep } from "./next";
export {
  reasonsOf,
  valueOf,
  verdictOf,
  verdictRank,
  type PageFacts,
  type PresentLink,
  type VerdictInput,
} from "./reasons";
export { canonicalElsewhere, redirectedAway, sameUrl } from "./url";
export { pageSignals, type ObservedPage } from "./page";
export {
  compareViews,
  googleFacts,
  readingOf,
  uniqueHrefs,
  withGoogleView,
  type GoogleFacts,
  type GoogleReading,
  type GoogleRenderFacts,
  type RenderSignals,
} from "./google-view";
