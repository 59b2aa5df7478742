import { GOOGLE_VIEW_BADGES } from "@/lib/schemas/google-view";
import { REASON_WORDS, type VerdictReason } from "@/lib/schemas/verdict";

/**
 * The badges of Google's view (google-view.md §4): a link a visitor gets and Googlebot's render has not
 * ("Not seen by Google"), and a link only Googlebot's render has ("Only shown to Googlebot", cloaking).
 * The same badge on the monitor page, the Links page and a saved audit; the words are the API's.
 */

export type GoogleViewBadgeKind = keyof typeof GOOGLE_VIEW_BADGES;

/** The verdict reason each badge stands for. */
export const GOOGLE_VIEW_BADGE_REASON: Record<GoogleViewBadgeKind, VerdictReason> = {
  notInGoogleView: "not_in_google_view",
  shownOnlyToGooglebot: "shown_only_to_googlebot",
};

/** The badges a verdict's reasons call for, in the reasons' order. */
export function googleViewBadgesOf(reasons: readonly VerdictReason[]): GoogleViewBadgeKind[] {
  return (Object.keys(GOOGLE_VIEW_BADGE_REASON) as GoogleViewBadgeKind[]).filter((kind) =>
    reasons.includes(GOOGLE_VIEW_BADGE_REASON[kind]),
  );
}

const TONE =
  "bg-fuchsia-50 text-fuchsia-900 ring-fuchsia-300 dark:bg-fuchsia-950/50 dark:text-fuchsia-200 dark:ring-fuchsia-800";

/** The badge alone (the text says it; the colour only repeats it). */
export function GoogleViewBadge({ kind }: { kind: GoogleViewBadgeKind }) {
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ${TONE}`}
      data-google-view={kind}
    >
      {GOOGLE_VIEW_BADGES[kind]}
    </span>
  );
}

/** The badge with its reason in words beneath (a tracked link's verdict). */
export function GoogleViewReason({ kind }: { kind: GoogleViewBadgeKind }) {
  return (
    <span className="flex flex-col items-start gap-0.5" data-reason={GOOGLE_VIEW_BADGE_REASON[kind]}>
      <GoogleViewBadge kind={kind} />
      <span className="text-xs text-slate-700 dark:text-slate-300">{REASON_WORDS[GOOGLE_VIEW_BADGE_REASON[kind]]}</span>
    </span>
  );
}
